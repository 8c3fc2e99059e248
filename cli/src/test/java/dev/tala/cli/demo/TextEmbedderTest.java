package dev.tala.cli.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class TextEmbedderTest {
    private final TextEmbedder embedder = new TextEmbedder();

    private double cosine(String a, String b) {
        return TextEmbedder.cosine(embedder.embed(a), embedder.embed(b));
    }

    @Test
    void sameCommandFamilyIsCloseAndOtherToolsAreFar() {
        double siblings = cosine("kubectl rollout restart deploy/api", "kubectl rollout restart deploy/web");
        double strangers = cosine("kubectl rollout restart deploy/api", "terraform apply -auto-approve");
        assertTrue(siblings > 0.7, "siblings: " + siblings);
        assertTrue(Math.abs(strangers) < 0.2, "strangers: " + strangers);
        assertTrue(siblings - strangers > 0.5, siblings + " vs " + strangers);
    }

    @Test
    void closerWhenMoreIsShared() {
        String q = "kubectl -n prod logs deploy/payments --since=15m";
        assertTrue(cosine(q, "kubectl -n prod logs deploy/checkout --since=15m")
                > cosine(q, "kubectl -n prod get pods -l app=checkout"));
        assertTrue(cosine(q, "kubectl -n prod get pods -l app=checkout") > cosine(q, "git push origin main"));
    }

    @Test
    void splitsOnPunctuationAndIgnoresCase() {
        assertArrayEquals(embedder.embed("deploy api"), embedder.embed("deploy/api"));
        assertArrayEquals(embedder.embed("kubectl get pods"), embedder.embed("KUBECTL  Get PODS"));
    }

    @Test
    void nearSpellingsOverlapThroughTrigrams() {
        String q = "kubectl logs deploy/payment";
        assertTrue(cosine(q, "kubectl logs deploy/payments") > cosine(q, "kubectl logs deploy/search"));
        assertTrue(cosine("payment", "payments") > 0.1 + Math.abs(cosine("payment", "search")));
    }

    @Test
    void textWithoutWordsIsAFixedUnitVector() {
        float[] empty = embedder.embed("");
        assertArrayEquals(empty, embedder.embed("  --- // "));
        assertEquals(1.0, norm(empty), 1e-6);
        assertEquals(1, Arrays.stream(box(empty)).filter(x -> x != 0).count());
    }

    @Test
    void dimensionIsRespectedAndChecked() {
        assertEquals(7, new TextEmbedder(7).embed("terraform plan").length);
        assertEquals(384, embedder.embed("terraform plan").length);
        assertThrows(IllegalArgumentException.class, () -> new TextEmbedder(0));
    }

    /**
     * Pins the algorithm: the same text must give the same bits on every machine and release.
     * If this fails after a deliberate change, existing demo databases embed differently.
     */
    @Test
    void pinnedOutput() {
        float[] v = embedder.embed("kubectl rollout restart deploy/api");
        int[] bits = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            bits[i] = Float.floatToIntBits(v[i]);
        }
        assertEquals(PINNED_HASH, Arrays.hashCode(bits));
    }

    private static final int PINNED_HASH = -2033998727;

    @Property(tries = 200)
    void alwaysUnitLengthAndFinite(@ForAll String text) {
        float[] v = embedder.embed(text);
        for (float x : v) {
            assertTrue(Float.isFinite(x));
        }
        assertEquals(1.0, norm(v), 1e-5);
        assertArrayEquals(v, new TextEmbedder().embed(text), "deterministic");
    }

    @Property(tries = 50)
    void tinyDimensionsNeverGiveZeros(@ForAll String text) {
        float[] v = new TextEmbedder(1).embed(text);
        assertFalse(v[0] == 0 || Float.isNaN(v[0]));
    }

    private static double norm(float[] v) {
        double s = 0;
        for (float x : v) {
            s += (double) x * x;
        }
        return Math.sqrt(s);
    }

    private static double[] box(float[] v) {
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }
}
