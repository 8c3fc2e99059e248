package dev.tala.core.error;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/** An I/O error from the file layer, carried unchecked; the cause is the original IOException. */
public final class StorageException extends TalaException {
    public StorageException(String message, IOException cause) {
        super(join(message, cause), cause);
    }

    /** "cannot read X" and "X: reason" as "cannot read X: reason", with X once. */
    private static String join(String message, IOException cause) {
        String why = describe(cause);
        if (cause instanceof FileSystemException f && f.getFile() != null && f.getOtherFile() == null
                && message.endsWith(f.getFile()) && why.startsWith(f.getFile())) {
            String rest = why.substring(f.getFile().length());
            return message + (rest.startsWith(":") ? rest : ":" + rest);
        }
        return message + ": " + why;
    }

    @Override
    public synchronized IOException getCause() {
        return (IOException) super.getCause();
    }

    /**
     * What went wrong, in words: the JDK's file-system exceptions carry only the path as their
     * message ("I/O error: /db/MANIFEST"), leaving the reader to guess from the type.
     */
    public static String describe(IOException e) {
        if (e instanceof FileSystemException fse) {
            String file = fse.getFile() == null ? "" : fse.getFile();
            String what = switch (fse) {
                case NoSuchFileException x -> "does not exist";
                case AccessDeniedException x -> "permission denied";
                case FileAlreadyExistsException x -> "already exists";
                case DirectoryNotEmptyException x -> "is a directory that is not empty";
                case NotDirectoryException x -> "is not a directory";
                default -> fse.getReason() == null ? fse.getClass().getSimpleName() : fse.getReason();
            };
            String other = fse.getOtherFile() == null ? "" : " (and " + fse.getOtherFile() + ")";
            if (what.equals(fse.getReason())) {
                // The system's own words ("No space left on device"), set off from the path.
                return file + other + ": " + what;
            }
            return file + other + " " + what + (fse.getReason() != null ? " (" + fse.getReason() + ")" : "");
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
