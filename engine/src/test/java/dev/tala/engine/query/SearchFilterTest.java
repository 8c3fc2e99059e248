package dev.tala.engine.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tala.core.model.Status;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SearchFilterTest {
    @Test
    void anEmptyStatusSetMeansEveryStatusWhicheverWayItIsMade() {
        SearchFilter viaConstructor = new SearchFilter(0, Long.MAX_VALUE, Set.of(), 0f);
        SearchFilter viaWither = SearchFilter.ALL.withStatuses(Set.of());
        assertEquals(EnumSet.allOf(Status.class), viaConstructor.statuses());
        assertEquals(viaWither, viaConstructor);
        for (Status s : Status.values()) {
            assertTrue(viaConstructor.accepts(1, s, 1f), s.label());
        }
    }

    @Test
    void noFilterHandsOutAStatusSetItsHolderCouldChange() {
        // A filter is a value: a caller removing from the set it got back changed that filter, and
        // through a shared set would change every filter made from an empty one.
        for (SearchFilter f : new SearchFilter[] {SearchFilter.ALL, new SearchFilter(0, 1, Set.of(), 0f),
                SearchFilter.ALL.withStatuses(EnumSet.of(Status.SUCCESS))}) {
            assertThrows(UnsupportedOperationException.class, () -> f.statuses().remove(Status.SUCCESS));
            assertThrows(UnsupportedOperationException.class, () -> f.statuses().add(Status.PENDING));
        }
    }

    @Test
    void theConstructorChecksTheMinimumConfidenceAsTheWitherDoes() {
        for (float bad : new float[] {Float.NaN, -0.1f, 1.5f}) {
            IllegalArgumentException viaConstructor = assertThrows(IllegalArgumentException.class,
                    () -> new SearchFilter(0, Long.MAX_VALUE, EnumSet.allOf(Status.class), bad));
            assertTrue(viaConstructor.getMessage().contains("minimum confidence"), viaConstructor.getMessage());
            assertThrows(IllegalArgumentException.class, () -> SearchFilter.ALL.withMinConfidence(bad));
        }
    }
}
