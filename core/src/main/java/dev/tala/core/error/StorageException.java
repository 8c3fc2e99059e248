package dev.tala.core.error;

import java.io.IOException;

/** An I/O error from the file layer, carried unchecked; the cause is the original IOException. */
public final class StorageException extends TalaException {
    public StorageException(String message, IOException cause) {
        super(message + ": " + cause.getMessage(), cause);
    }

    @Override
    public synchronized IOException getCause() {
        return (IOException) super.getCause();
    }
}
