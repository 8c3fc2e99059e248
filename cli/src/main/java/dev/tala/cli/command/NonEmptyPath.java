package dev.tala.cli.command;

import java.nio.file.Path;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A directory argument that must name something: {@code --db ""}, what an unset shell variable
 * gives, would otherwise be the current directory, and {@code init} made a database there.
 */
public final class NonEmptyPath implements ITypeConverter<Path> {
    @Override
    public Path convert(String value) {
        if (value.isBlank()) {
            throw new TypeConversionException("an empty path names no directory (an unset shell variable?)");
        }
        return Path.of(value);
    }
}
