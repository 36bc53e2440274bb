package dev.stint.core.kueue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Kueue's defaulting rules (jobframework/defaults.go) as Stint applies them on a job's first pass. */
class QueueDefaultsTest {
  private static final String QUEUE = KueueApi.QUEUE_NAME_LABEL;
  private static final String PRIORITY = KueueApi.PRIORITY_CLASS_LABEL;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', textBlock = """
      no label, both defaults exist                      | -          | -    | true  | false | true  | true  | default | default
      only the default queue exists                      | -          | -    | true  | false | true  | false | default | -
      only the default priority class exists             | -          | -    | true  | false | false | true  | -       | default
      neither exists: nothing changes                    | -          | -    | true  | false | false | false | -       | -
      the user's queue wins                              | team-queue | -    | true  | false | true  | true  | -       | default
      the user's priority class wins                     | -          | high | true  | false | true  | true  | default | -
      both set by the user                               | team-queue | high | true  | false | true  | true  | -       | -
      an empty queue label counts as none, as in Kueue   | ''         | -    | true  | false | true  | false | default | -
      a job Stint passed over already is never moved     | -          | -    | false | false | true  | true  | -       | -
      a job whose owner queues it is left to its owner   | -          | -    | true  | true  | true  | true  | -       | -
      """)
  void addsTheLabelsKueuesWebhookWouldHaveAdded(String caseName, String queueLabel, String priorityLabel,
                                                  boolean firstPass, boolean owned, boolean defaultQueue,
                                                  boolean defaultPriority, String wantQueue, String wantPriority) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("app", "train");
    if (!"-".equals(queueLabel)) {
      labels.put(QUEUE, queueLabel);
    }
    if (!"-".equals(priorityLabel)) {
      labels.put(PRIORITY, priorityLabel);
    }

    Map<String, String> added = QueueDefaults.labelsToAdd(new QueueDefaults.Facts(labels, firstPass, owned,
        defaultQueue, defaultPriority));

    Map<String, String> want = new LinkedHashMap<>();
    if (!"-".equals(wantQueue)) {
      want.put(QUEUE, wantQueue);
    }
    if (!"-".equals(wantPriority)) {
      want.put(PRIORITY, wantPriority);
    }
    assertThat(added).as(caseName).containsExactlyEntriesOf(want);
  }

  @ParameterizedTest(name = "labels {0}")
  @CsvSource({"true", "false"})
  void aJobWithoutLabelsAtAllIsDefaultedToo(boolean nullLabels) {
    Map<String, String> none = nullLabels ? null : Map.of();
    assertThat(QueueDefaults.labelsToAdd(new QueueDefaults.Facts(none, true, false, true, false)))
        .containsExactly(Map.entry(QUEUE, "default"));
  }
}
