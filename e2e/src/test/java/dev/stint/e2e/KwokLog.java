package dev.stint.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * kwok's log lines about a job's pods, and about nodes taken up again, for a finding's evidence: a pod stuck
 * {@code Terminating} is kwok's to finish, and its log says whether it tried.
 */
final class KwokLog {
  private static final Pattern FIELD = Pattern.compile("\"(time|msg|pod|node|err)\":\"((?:[^\"\\\\]|\\\\.)*)\"");
  private static final int MAX_LINES = 30;

  private KwokLog() { }

  static Path file() {
    return LocalCluster.kubeconfig().getParent().resolve("logs/kwok.log");
  }

  /** The lines naming a pod of the job (namespace/job-...), and those about leases and node pod syncs. */
  static String about(String namespace, String job) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file());
    } catch (IOException e) {
      return "    kwok log: unreadable (" + e.getMessage() + ")\n";
    }
    String pod = "\"pod\":\"" + namespace + "/" + job + "-";
    List<String> picked = lines.stream()
        .filter(l -> l.contains(pod) || l.contains("Creating lease") || l.contains("node's pods"))
        .map(KwokLog::compact).toList();
    StringBuilder b = new StringBuilder("    kwok log lines naming its pods, lease creations and node pod syncs ("
        + file() + "):\n");
    picked.stream().skip(Math.max(0, picked.size() - MAX_LINES)).forEach(l -> b.append("    ").append(l).append('\n'));
    if (picked.isEmpty()) {
      b.append("    (none)\n");
    }
    return b.toString();
  }

  private static String compact(String line) {
    StringBuilder b = new StringBuilder();
    Matcher m = FIELD.matcher(line);
    while (m.find()) {
      String value = m.group(2);
      b.append(b.isEmpty() ? "" : " ").append(m.group(1).equals("time") ? value : m.group(1) + "=" + value);
    }
    return b.length() > 240 ? b.substring(0, 240) : b.toString();
  }
}
