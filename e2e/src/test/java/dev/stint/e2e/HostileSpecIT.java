package dev.stint.e2e;

import static dev.stint.e2e.HostileOutcomeJudge.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Hostile and edge-case specs, generated from a seed, against the real API server with Stint running as a process.
 * The property, for every generated PyTorchJob, TFJob and MPIJob (DESIGN.md §6, "never silent, never down"):
 *
 * <ul>
 *   <li>the API server refuses it with a message naming the field, or</li>
 *   <li>it ends {@code Failed=True} with a message naming the field or the object (the engine ends a job
 *       {@code <Kind>FailedCreate} when the API server refuses a child for good, {@code <Kind>FailedValidation} when
 *       its own validation refuses it), or</li>
 *   <li>it is valid and gets {@code Created=True};</li>
 * </ul>
 * a job is never left without any condition, and the operator stays up: it is alive after every batch, and a valid
 * control job created at the end still reaches {@code Running=True}.
 *
 * <p>Each spec is told whether it is valid, invalid or may go either way, so a valid job that fails and an invalid one
 * left running both break the property. Every job gets at least {@link HostileOutcomeJudge#OUTCOME_TIMEOUT} after its
 * creation: the waits are generous, and nothing depends on how fast anything happens.
 *
 * <p>The seed is printed (and named in a failure); {@code -Dstint.hostile.seed=N} replays a run,
 * {@code -Dstint.hostile.tries=N} sets the number of specs (default {@value #DEFAULT_TRIES}, under two minutes). The
 * generation is a plain seeded {@link java.util.SplittableRandom}: same seed, same specs, same order.
 *
 * <p>The parts: {@link HostileSpecGenerator} (the cases), {@link HostileOutcomeJudge} (applying and judging them),
 * {@link HostileTally} (the counts and the report).
 */
class HostileSpecIT {
  static final int DEFAULT_TRIES = 40;
  /** Specs created at once, then waited for together; each batch's jobs are deleted before the next one. */
  static final int BATCH = 40;

  @RegisterExtension
  static final OnLocalCluster cluster = OnLocalCluster.namespace("hostile").withOperator();

  @Test
  void everyHostileSpecIsRefusedOrFailedNamingTheFieldOrIsValid() throws IOException {
    long seed = Long.getLong("stint.hostile.seed", new SplittableRandom().nextLong());
    int tries = Integer.getInteger("stint.hostile.tries", DEFAULT_TRIES);
    System.out.println("HostileSpecIT: seed " + seed + ", tries " + tries
        + " (replay with -Dstint.hostile.seed=" + seed + " -Dstint.hostile.tries=" + tries + ")");
    HostileSpecGenerator generator = new HostileSpecGenerator(seed);
    HostileOutcomeJudge judge = new HostileOutcomeJudge(cluster.client(), cluster.ns());
    HostileTally tally = new HostileTally();

    for (int batch = 0; tally.tried < tries; batch++) {
      runBatch(batch, generator, judge, tally, tries, seed);
    }

    String control = judge.controlJobReachesRunning();
    tally.line("HostileSpecIT seed " + seed + ": " + tally + "; " + control);
    Path report = tally.write();

    assertThat(cluster.operator().alive()).as("the operator is alive at the end (seed %d)", seed).isTrue();
    assertThat(tally.violations).as("%s%nviolations (replay with -Dstint.hostile.seed=%d -Dstint.hostile.tries=%d; "
            + "report in %s):%n%s", tally, seed, tries, report,
        String.join("\n", tally.violations.stream().map(c -> c.describe() + ": " + c.violation + "\n    "
            + JSON.asJson(c.job)).toList()))
        .isEmpty();
  }

  /** Up to {@link #BATCH} specs created, judged together and reported; the operator must survive them. */
  private static void runBatch(int batch, HostileSpecGenerator generator, HostileOutcomeJudge judge,
                               HostileTally tally, int tries, long seed) {
    List<HostileCase> cases = new ArrayList<>();
    while (cases.size() < BATCH && tally.tried < tries) {
      HostileCase c = generator.next();
      tally.tried++;
      cases.add(c);
      judge.create(c, batch, tally);
    }
    judge.awaitOutcomes(cases, tally);
    cases.forEach(tally::report);
    assertThat(cluster.operator().alive()).as("the operator died during batch %d (seed %d); its log:%n%s", batch, seed,
        tail(cluster.operator().log())).isTrue();
    judge.deleteBatch(batch);
  }

  static String tail(String text) {
    String[] lines = text.split("\n");
    return String.join("\n", List.of(lines).subList(Math.max(0, lines.length - 40), lines.length));
  }
}
