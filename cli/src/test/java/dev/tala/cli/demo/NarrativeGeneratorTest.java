package dev.tala.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.cli.json.IntentLine;
import dev.tala.cli.json.IntentLineParser;
import dev.tala.cli.json.JsonLinesWriter;
import dev.tala.core.model.Edge;
import dev.tala.core.model.Intent;
import dev.tala.core.model.IntentId;
import dev.tala.core.model.Relation;
import dev.tala.core.model.Status;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NarrativeGeneratorTest {
    private static final int DIM = 64;
    private static final int COUNT = 20_000;
    private final TextEmbedder embedder = new TextEmbedder(DIM);
    private List<Intent> intents;
    private NarrativeRun run;
    private Map<IntentId, Intent> byId;

    @BeforeAll
    void generate() {
        run = new NarrativeGenerator(7, DIM, embedder).run(COUNT);
        intents = new ArrayList<>(COUNT);
        run.forEachRemaining(intents::add);
        byId = new HashMap<>();
        intents.forEach(i -> byId.put(i.id(), i));
    }

    @Test
    void producesExactlyCountIntents() {
        assertEquals(COUNT, intents.size());
        assertEquals(COUNT, byId.size(), "ids are unique");
        assertTrue(!run.hasNext());
    }

    @Test
    void sameSeedSameIntents() {
        List<Intent> again = new NarrativeGenerator(7, DIM, embedder).stream(3_000).toList();
        List<Intent> another = new NarrativeGenerator(7, DIM, new TextEmbedder(DIM)).stream(3_000).toList();
        assertEquals(again, another);
        // A longer run shares its beginning; only steps still running at the short run's end differ.
        for (int i = 0; i < again.size(); i++) {
            Intent shorter = again.get(i);
            Intent longer = intents.get(i);
            assertEquals(shorter.status() == Status.PENDING ? longer.withOutcome(Status.PENDING, null) : longer, shorter);
        }
        assertNotEquals(again, new NarrativeGenerator(8, DIM, embedder).stream(3_000).toList());
    }

    @Test
    void edgeTargetsWereGeneratedEarlier() {
        Set<IntentId> seen = new HashSet<>();
        for (Intent intent : intents) {
            for (Edge e : intent.edges()) {
                assertTrue(seen.contains(e.target()), () -> intent + " points at " + e.target() + " not generated before");
            }
            seen.add(intent.id());
        }
    }

    @Test
    void edgesStayWithinOneContext() {
        // A narrative (and an incident set off by it) shares one service/environment/region.
        for (Intent intent : intents) {
            for (Edge e : intent.edges()) {
                assertEquals(byId.get(e.target()).contextHash(), intent.contextHash(), intent::toString);
            }
        }
        long contexts = intents.stream().mapToLong(Intent::contextHash).distinct().count();
        assertTrue(contexts > 50 && contexts < COUNT / 10, "distinct contexts: " + contexts);
    }

    @Test
    void everyIntentValidatesAndRoundTripsThroughJson() {
        IntentLineParser parser = new IntentLineParser(DIM);
        for (Intent intent : intents) {
            intent.requireWritable(DIM);
            assertEquals(intent, intent.toBuilder().build());
            assertEquals(new IntentLine.Put(intent), parser.parse(JsonLinesWriter.toLine(intent)));
            assertTrue(intent.confidence() >= 0.5f && intent.confidence() <= 1f, intent::toString);
        }
    }

    @Test
    void idsAreVersion7AndIncreaseWithTime() {
        Intent previous = null;
        for (Intent intent : intents) {
            IntentId id = intent.id();
            assertEquals(7, (id.mostSignificantBits() >>> 12) & 0xF, "version");
            assertEquals(2, id.leastSignificantBits() >>> 62, "variant");
            assertEquals(intent.timestampNs() / 1_000_000, id.mostSignificantBits() >>> 16, "millis");
            if (previous != null) {
                assertTrue(previous.id().compareTo(id) < 0, "ids increase");
                assertTrue(previous.timestampNs() <= intent.timestampNs(), "timestamps never go back");
            }
            previous = intent;
        }
        long spanNs = intents.getLast().timestampNs() - intents.getFirst().timestampNs();
        assertTrue(spanNs > 86_400e9, "narratives spread over simulated days: " + spanNs / 3_600e9 + " h");
    }

    @Test
    void allStatusesAndRelationsOccur() {
        Map<Status, Long> statuses = intents.stream().collect(Collectors.groupingBy(Intent::status, Collectors.counting()));
        assertEquals(EnumSet.allOf(Status.class), statuses.keySet());
        assertTrue(statuses.get(Status.SUCCESS) > COUNT * 0.85, statuses::toString);
        assertTrue(statuses.get(Status.FAILURE) > COUNT * 0.01, statuses::toString);
        Set<Relation> relations = EnumSet.noneOf(Relation.class);
        intents.forEach(i -> i.edges().forEach(e -> relations.add(e.relation())));
        assertEquals(EnumSet.allOf(Relation.class), relations);
    }

    @Test
    void onlyStepsStillRunningAtTheEndArePending() {
        long now = intents.getLast().timestampNs();
        int pending = 0;
        for (Intent intent : intents) {
            if (intent.status() == Status.PENDING) {
                assertNull(intent.outcome());
                assertTrue(now - intent.timestampNs() <= 15 * 60e9, "no step runs longer than 15 minutes");
                pending++;
            } else {
                assertTrue(intent.timestampNs() + intent.outcome().latencyNs() <= now, "finished by the end");
            }
        }
        assertEquals(Status.PENDING, intents.getLast().status(), "the latest intent is still running");
        assertTrue(pending < COUNT / 100, "pending: " + pending);
    }

    @Test
    void failuresHaveRealisticExitCodesAndRetries() {
        Set<Integer> codes = new HashSet<>();
        for (Intent intent : intents) {
            if (intent.status() == Status.FAILURE) {
                assertNotEquals(0, intent.outcome().exitCode());
                codes.add(intent.outcome().exitCode());
            } else if (intent.status() == Status.SUCCESS) {
                assertEquals(0, intent.outcome().exitCode());
            }
            for (Edge e : intent.edges()) {
                if (e.relation() == Relation.RETRY) {
                    Intent attempt = byId.get(e.target());
                    assertNotEquals(Status.SUCCESS, attempt.status(), "only a failed attempt is retried");
                    assertEquals(attempt.command(), intent.command(), "a retry runs the same command");
                }
            }
        }
        assertTrue(codes.containsAll(Set.of(1, 2, 137, 124)), codes::toString);
    }

    @Test
    void failedIdsAndChainsAreReported() {
        List<IntentId> failed = intents.stream().filter(i -> i.status() == Status.FAILURE).map(Intent::id).toList();
        assertEquals(failed, run.failedIds());
        assertTrue(!run.failureChains().isEmpty(), "some failure set off an incident");
        for (FailureChain chain : run.failureChains()) {
            assertEquals(Status.FAILURE, byId.get(chain.failure()).status());
            Intent alert = byId.get(chain.alert());
            assertTrue(alert.edges().contains(new Edge(chain.failure(), Relation.CAUSAL,
                    alert.edges().getFirst().weight())), alert::toString);
            assertTrue(alert.command().startsWith("amtool"), alert::command);
            assertTrue(byId.get(chain.latest()).timestampNs() >= alert.timestampNs());
        }
    }

    @Test
    void commandsComeFromRealTools() {
        Set<String> programs = intents.stream().map(i -> i.command().split(" ")[0]).collect(Collectors.toSet());
        assertTrue(programs.containsAll(Set.of("kubectl", "terraform", "git", "helm", "curl", "psql", "docker",
                "aws", "gcloud", "amtool", "pd", "gh")), programs::toString);
        long distinct = intents.stream().map(Intent::command).distinct().count();
        assertTrue(distinct > COUNT / 4, "commands vary: " + distinct);
    }

    @Test
    void appendingAfterExistingDataKeepsIdsIncreasing() {
        long start = NarrativeGenerator.startAfter(run.lastTimestampNs());
        List<Intent> more = new NarrativeGenerator(7, DIM, embedder, start).stream(500).toList();
        assertTrue(more.getFirst().timestampNs() > intents.getLast().timestampNs());
        assertTrue(more.getFirst().id().compareTo(intents.getLast().id()) > 0);
        assertNotEquals(intents.getFirst().command() + intents.get(1).command(),
                more.getFirst().command() + more.get(1).command(), "a new start time gives new data");
    }

    @Test
    void embeddingIsTheCommandsAndDimensionMustMatch() {
        Intent any = intents.get(123);
        assertEquals(new IntentLine.Put(any).intent().embedding()[0], embedder.embed(any.command())[0]);
        assertThrows(IllegalArgumentException.class, () -> new NarrativeGenerator(1, 384, embedder));
    }
}
