package dev.tala.cli.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

/** The two Jackson factories of this package; both are thread-safe and meant to be shared. */
final class JsonFactories {
    /**
     * Reading: NaN and Infinity literals are accepted by the tokenizer so that core's validation
     * can reject them with the field's name, instead of a bare "malformed JSON". The fast float
     * parser (FastDoubleParser, shaded in jackson-core) parses straight to float with correct
     * rounding, which is what both speed and exact round trips need. The source text is left out
     * of error locations: a line of 384 floats would swamp the message.
     */
    static final JsonFactory READ = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER)
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION)
            .build();

    /**
     * Writing: closing a writer must not close the caller's stream (often standard output).
     * Characters outside the BMP (emoji) are written as 4-byte UTF-8 rather than as an
     * escaped surrogate pair, so byte output and character output are the same text.
     */
    static final JsonFactory WRITE = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .build();

    private JsonFactories() {
    }
}
