package dev.stint.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * deploy/monitoring/stint-rules.yaml with the real promtool (built by e2e/testbin.sh from Prometheus's Go module):
 * the rules are valid, and their unit tests (stint-rules.test.yaml: series that fire each alert, and series that must
 * not) pass. No cluster needed; HelmInstallIT evaluates the same rules on a Prometheus scraping Stint.
 */
class AlertRulesIT {
  private static final String RULES = "deploy/monitoring/stint-rules.yaml";

  @Test
  void theRulesAreValid() throws java.io.IOException {
    Testbin.Result check = promtool("check", "rules", RULES);

    assertThat(check.exitCode()).as("promtool check rules: %s%s", check.stdout(), check.stderr()).isZero();
    assertThat(check.stdout()).contains("SUCCESS: " + MonitoringFilesTest.alerts().size() + " rules found");
  }

  @Test
  void everyAlertsUnitTestsPass() {
    Testbin.Result test = promtool("test", "rules", "deploy/monitoring/stint-rules.test.yaml");

    assertThat(test.exitCode()).as("promtool test rules: %s%s", test.stdout(), test.stderr()).isZero();
    assertThat(test.stdout() + test.stderr()).contains("SUCCESS");
  }

  private static Testbin.Result promtool(String... args) {
    List<String> command = new java.util.ArrayList<>(List.of(Testbin.promtool().toString()));
    command.addAll(List.of(args));
    return Testbin.run(command, null, null);
  }
}
