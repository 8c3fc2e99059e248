package dev.tala.cli.output;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** A plain-text table with aligned columns: numbers right-aligned, text left-aligned. */
public final class Table {
    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String... headers) {
        this.headers = List.of(headers);
    }

    public Table row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("row has " + cells.length + " cells, table has " + headers.size() + " columns");
        }
        List<String> r = new ArrayList<>();
        for (Object c : cells) {
            r.add(c == null ? "" : c instanceof Number n && !(c instanceof Float) && !(c instanceof Double)
                    ? String.format("%,d", n.longValue()) : printable(String.valueOf(c)));
        }
        rows.add(r);
        return this;
    }

    /**
     * {@code s} with control characters written as escapes (a newline as backslash-n, ESC as
     * backslash-u001b): stored text is data, and an escape sequence in a command must neither
     * break a table nor reach the terminal as a command to it.
     */
    public static String printable(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            boolean control = Character.isISOControl(ch) || ch == '\u2028' || ch == '\u2029';
            if (control && out == null) {
                out = new StringBuilder(s.length() + 8).append(s, 0, i);
            }
            if (out != null) {
                if (!control) {
                    out.append(ch);
                } else if (ch == '\n') {
                    out.append("\\n");
                } else if (ch == '\r') {
                    out.append("\\r");
                } else if (ch == '\t') {
                    out.append("\\t");
                } else {
                    out.append(String.format("\\u%04x", (int) ch));
                }
            }
        }
        return out == null ? s : out.toString();
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public void print(PrintStream out) {
        int n = headers.size();
        int[] width = new int[n];
        boolean[] numeric = new boolean[n];
        for (int i = 0; i < n; i++) {
            width[i] = headers.get(i).length();
            numeric[i] = !rows.isEmpty();
        }
        for (List<String> r : rows) {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], r.get(i).length());
                numeric[i] &= r.get(i).isEmpty() || r.get(i).matches("-?[0-9][0-9,.]*( ?[%a-zA-Z/]+)?");
            }
        }
        out.println(line(headers, width, numeric));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < n; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
        }
        out.println(rule);
        for (List<String> r : rows) {
            out.println(line(r, width, numeric));
        }
    }

    private static String line(List<String> cells, int[] width, boolean[] numeric) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            if (i > 0) {
                sb.append("  ");
            }
            String pad = " ".repeat(width[i] - c.length());
            boolean last = i == cells.size() - 1;
            sb.append(numeric[i] ? pad + c : last ? c : c + pad);
        }
        return sb.toString();
    }

    /** A two-column "field / value" table, for one record. */
    public static Table fields() {
        return new Table("field", "value");
    }
}
