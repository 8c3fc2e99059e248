/**
 * Data-driven tests, in the manner of Pebble's {@code datadriven} package: a test is a text file
 * of cases, each a command and the output it must give, run in order against one handler.
 *
 * <pre>
 * # A comment: a line starting with '#' between cases.
 * put a ts=10 cmd="deploy api" vec=(1, 0, 0)
 * ----
 *
 * scan from=0 to=20 limit=5
 * ----
 * a ts=10
 *
 * batch
 * put b ts=11
 * delete a
 * ----
 * </pre>
 *
 * <ul>
 *   <li>A case starts with a command line: the command, then arguments separated by spaces:
 *       words ({@code a}, or {@code "two words"}), and {@code key=value},
 *       {@code key="quoted value"} (escapes {@code \"} and {@code \\}) or
 *       {@code key=(item, item)} (items split at commas and trimmed). A key may appear once.
 *       A line ending in a backslash continues on the next line.</li>
 *   <li>Input lines may follow, up to the separator line {@code ----}; they cannot be blank.</li>
 *   <li>The expected output follows the separator and ends at the first blank line (or at the
 *       end of the file). An empty output is the separator followed by a blank line.</li>
 *   <li>An output that holds a blank line is written between doubled separators: {@code ----},
 *       {@code ----}, the output, {@code ----}, {@code ----}, then a blank line. It cannot
 *       hold two separator lines in a row.</li>
 *   <li>Between cases, blank lines and lines starting with {@code #} are skipped. Inside a case
 *       nothing is a comment: {@code #} lines of the input or the output are part of them.</li>
 * </ul>
 *
 * A handler must read every argument given (a misspelt key fails its case), and reports a
 * badly written case with {@link dev.tala.core.testing.datadriven.BadTestFileException}.
 * {@link dev.tala.core.testing.datadriven.DataDriven#run} checks a file, or with
 * {@code -Dtala.rewrite=true} writes the actual outputs back into it.
 */
package dev.tala.core.testing.datadriven;
