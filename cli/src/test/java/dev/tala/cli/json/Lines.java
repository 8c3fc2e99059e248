package dev.tala.cli.json;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Builds test lines field by field from a valid put, so each error test changes exactly one
 * thing and the rest of the line is known to be fine. Values are raw JSON text.
 */
final class Lines {
    static final String ID = "0190a6f2-7c1e-7a3b-9f00-0123456789ab";
    static final String OTHER_ID = "0190a6f2-7c1e-7a3b-9f00-00000000beef";

    private final Map<String, String> fields = new LinkedHashMap<>();

    static Lines put() {
        Lines l = new Lines();
        l.fields.put("op", "\"put\"");
        l.fields.put("id", "\"" + ID + "\"");
        l.fields.put("timestamp", "1700000000000000000");
        l.fields.put("command", "\"kubectl get pods\"");
        l.fields.put("embedding", "[0.5,-0.25,1.0]");
        return l;
    }

    static Lines of(String op) {
        Lines l = new Lines();
        l.fields.put("op", "\"" + op + "\"");
        l.fields.put("id", "\"" + ID + "\"");
        return l;
    }

    Lines with(String field, String rawJson) {
        fields.put(field, rawJson);
        return this;
    }

    Lines without(String field) {
        fields.remove(field);
        return this;
    }

    @Override
    public String toString() {
        StringJoiner j = new StringJoiner(",", "{", "}");
        fields.forEach((k, v) -> j.add("\"" + k + "\":" + v));
        return j.toString();
    }
}
