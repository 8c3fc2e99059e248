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
                    ? String.format("%,d", n.longValue()) : String.valueOf(c));
        }
        rows.add(r);
        return this;
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
