package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The paused-leader check's census of a pair's processes, on real processes: found by identity, stopped or not. */
class ChaosLeadersReplicasTest {
  @Test
  void findsEveryProcessInAReplicasNameWithItsState() throws Exception {
    String identity = "census-" + ProcessHandle.current().pid();
    ProcessBuilder pb = new ProcessBuilder("sleep", "60");
    pb.environment().put("POD_NAME", identity);
    Process first = pb.start();
    Process second = pb.start();
    try {
      String both = ChaosLeaders.replicasOnMachine(identity, "nobody-" + identity);
      assertThat(both).contains("pid " + first.pid() + " " + identity + " state S")
          .contains("pid " + second.pid() + " " + identity + " state S").doesNotContain("nobody");

      new ProcessBuilder("kill", "-STOP", Long.toString(first.pid())).start().waitFor(10, TimeUnit.SECONDS);
      await().atMost(Duration.ofSeconds(10)).until(() -> ChaosLeaders.replicasOnMachine(identity)
          .contains("pid " + first.pid() + " " + identity + " state T"));
      assertThat(ChaosLeaders.replicasOnMachine("nobody-" + identity)).isEqualTo("none");
    } finally {
      first.destroyForcibly();
      second.destroyForcibly();
      new ProcessBuilder("kill", "-CONT", Long.toString(first.pid())).start().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
