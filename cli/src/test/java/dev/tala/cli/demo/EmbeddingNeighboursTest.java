package dev.tala.cli.demo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Intent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * In a generated corpus, the nearest neighbours of a command (other command texts, by cosine)
 * are commands of the same family: the same program and subcommand.
 */
class EmbeddingNeighboursTest {
    private static final int K = 5;

    /** "kubectl -n prod logs deploy/x" -> "kubectl logs": the program and its first non-option word. */
    static String family(String command) {
        String[] words = command.split(" ");
        for (int i = 1; i < words.length; i++) {
            if (words[i].startsWith("-")) {
                if (!words[i].contains("=") && i + 1 < words.length && !words[i + 1].startsWith("-")
                        && words[i].length() <= 3) {
                    i++; // "-n prod": skip the option's value too
                }
                continue;
            }
            return words[0] + " " + words[i];
        }
        return words[0];
    }

    @Test
    void nearestNeighboursShareTheFamily() {
        TextEmbedder embedder = new TextEmbedder();
        Map<String, float[]> corpus = new LinkedHashMap<>();
        new NarrativeGenerator(11, embedder.dimension(), embedder).stream(4_000)
                .map(Intent::command)
                .forEach(c -> corpus.computeIfAbsent(c, embedder::embed));
        List<String> commands = new ArrayList<>(corpus.keySet());
        String[] prefixes = {"kubectl -n prod logs", "terraform -chdir", "docker push", "helm upgrade", "git fetch",
            "pd incident create", "aws route53", "dig +short"};
        int queries = 0;
        for (String prefix : prefixes) {
            String query = commands.stream().filter(c -> c.startsWith(prefix)).findFirst().orElse(null);
            if (query == null) {
                continue;
            }
            queries++;
            float[] q = corpus.get(query);
            List<String> nearest = commands.stream()
                    .filter(c -> !c.equals(query))
                    .sorted(Comparator.comparingDouble((String c) -> -TextEmbedder.cosine(q, corpus.get(c))))
                    .limit(K)
                    .toList();
            long same = nearest.stream().filter(c -> family(c).equals(family(query))).count();
            assertTrue(same >= K - 1, () -> "neighbours of \"" + query + "\" (" + family(query) + "): " + nearest);
        }
        assertTrue(queries >= 6, "the corpus has most families: " + queries);
    }
}
