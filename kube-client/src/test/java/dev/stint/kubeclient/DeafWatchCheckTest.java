package dev.stint.kubeclient;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DeafWatchCheckTest {
  private static final Duration PERIOD = Duration.ofSeconds(30);
  private static final Duration CONFIRM = Duration.ofSeconds(15);

  private final Map<String, String> apiServer = new HashMap<>();
  private final Map<String, String> cache = new HashMap<>();
  private final List<String> deaf = new ArrayList<>();
  private boolean listFails;
  private int lists;
  /** What the informer has taken in so far; unchanged unless a test says it delivered. */
  private long delivered;
  private final DeafWatchCheck check = new DeafWatchCheck(List.of(new WatchedCache("pytorchjob-pods", "pods", () -> {
    lists++;
    if (listFails) {
      throw new IllegalStateException("connection refused");
    }
    return Map.copyOf(apiServer);
  }, () -> Map.copyOf(cache), () -> delivered)), PERIOD, CONFIRM, deaf::add);

  @Test
  void aCacheEqualToTheApiServerIsCheckedAgainAfterThePeriod() {
    apiServer.put("ns/a", "10");
    cache.put("ns/a", "10");

    assertEquals(PERIOD, check.check());
    assertEquals(PERIOD, check.check());
    assertEquals(List.of(), deaf);
  }

  @Test
  void anObjectTheCacheNeverReceivesMakesTheInformerDeaf() {
    apiServer.put("ns/a", "10");
    cache.put("ns/a", "10");
    apiServer.put("ns/new", "12");

    assertEquals(CONFIRM, check.check()); // an event may be on its way: only suspected
    assertEquals(List.of(), deaf);
    check.check();

    assertEquals(List.of("informer pytorchjob-pods receives no events: its cache has stayed behind the API server "
        + "for at least 15 s on ns/new (API server: resourceVersion 12, cache: absent)"), deaf);
  }

  @Test
  void aDeletionTheCacheNeverReceivesMakesTheInformerDeaf() {
    cache.put("ns/gone", "7");

    check.check();
    check.check();

    assertEquals(List.of("informer pytorchjob-pods receives no events: its cache has stayed behind the API server "
        + "for at least 15 s on ns/gone (API server: absent, cache: resourceVersion 7)"), deaf);
  }

  static Stream<Arguments> suspectsThatMoved() {
    return Stream.of(
        Arguments.of("a cache that catches up before the confirmation is not deaf", "11", "11", PERIOD),
        Arguments.of("an object that changed meanwhile is only suspected again", "12", "11", CONFIRM));
  }

  /** A cache one version behind, suspected; by the confirming check the two stand at these versions. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("suspectsThatMoved")
  void aSuspectThatMovedIsNotDeaf(String name, String apiServerVersion, String cacheVersion, Duration nextCheck) {
    apiServer.put("ns/a", "11");
    cache.put("ns/a", "10");
    check.check();

    apiServer.put("ns/a", apiServerVersion);
    cache.put("ns/a", cacheVersion);

    assertEquals(nextCheck, check.check());
    assertEquals(List.of(), deaf);
  }

  @Test
  void anInformerThatDeliveredSinceTheLastCheckIsNotListedAndWhatWasSuspectedIsOnItsWay() {
    apiServer.put("ns/new", "12");
    assertEquals(CONFIRM, check.check());

    delivered += 3; // its watch is alive: the suspect's event comes in order behind what it delivered
    assertEquals(PERIOD, check.check());

    assertEquals(1, lists);
    assertEquals(1, check.skipped());
    assertEquals(List.of(), deaf);
  }

  @Test
  void anInformerThatStopsDeliveringIsListedAgainAndFoundDeaf() {
    check.check();
    delivered++;
    check.check(); // not listed
    apiServer.put("ns/new", "12"); // the watch died after its last delivery: the cache never hears of ns/new

    assertEquals(CONFIRM, check.check());
    check.check();

    assertEquals(3, lists);
    assertEquals(1, deaf.size());
    assertTrue(deaf.get(0).contains("ns/new (API server: resourceVersion 12, cache: absent)"), deaf.get(0));
  }

  @Test
  void aFailedListForgetsWhatWasSuspected() {
    apiServer.put("ns/new", "12");
    check.check();

    listFails = true;
    assertEquals(PERIOD, check.check());
    listFails = false;
    check.check();

    assertEquals(List.of(), deaf); // suspected anew, not confirmed across the failed list
  }

  @Test
  void theMessageNamesThreeObjectsAndCountsTheRest() {
    for (int i = 1; i <= 5; i++) {
      apiServer.put("ns/j" + i, "2" + i);
    }

    check.check();
    check.check();

    assertEquals(1, deaf.size());
    assertTrue(deaf.get(0).endsWith("on ns/j1 (API server: resourceVersion 21, cache: absent), ns/j2 (API server: "
        + "resourceVersion 22, cache: absent), ns/j3 (API server: resourceVersion 23, cache: absent) and 2 more"),
        deaf.get(0));
  }

  @Test
  void informersAreJudgedApartEvenUnderOneName() {
    List<String> found = new ArrayList<>();
    Map<String, String> behind = Map.of("ns/pt-5", "1236");
    DeafWatchCheck two = new DeafWatchCheck(List.of(
        new WatchedCache("ControllerEventSource", () -> behind, Map::of),
        new WatchedCache("ControllerEventSource", Map::of, Map::of)), PERIOD, CONFIRM, found::add);

    two.check();
    two.check();

    assertEquals(1, found.size());
    assertTrue(found.get(0).contains("ns/pt-5 (API server: resourceVersion 1236, cache: absent)"), found.get(0));
  }
}
