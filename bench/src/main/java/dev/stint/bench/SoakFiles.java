package dev.stint.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What bench/soak.sh wrote into a soak's folder (soak.env, runs.tsv and each run's files, samples.csv), read back. */
final class SoakFiles {
  private SoakFiles() {
  }

  static Map<String, String> env(Path file) throws IOException {
    Map<String, String> env = new LinkedHashMap<>();
    if (Files.exists(file)) {
      for (String line : Files.readAllLines(file)) {
        int eq = line.indexOf('=');
        if (eq > 0) {
          env.put(line.substring(0, eq), line.substring(eq + 1));
        }
      }
    }
    return env;
  }

  static List<SoakReport.Run> runs(Path dir) throws IOException {
    List<SoakReport.Run> runs = new ArrayList<>();
    Path file = dir.resolve("runs.tsv");
    if (!Files.exists(file)) {
      return runs;
    }
    for (String line : Files.readAllLines(file)) {
      String[] f = line.split("\t");
      if (f.length < 5 || f[0].equals("run")) {
        continue;
      }
      Path tally = dir.resolve("runs").resolve(f[0]).resolve("chaos-tally.txt");
      Path mvn = dir.resolve("runs").resolve(f[0]).resolve("mvn.log");
      runs.add(new SoakReport.Run(Integer.parseInt(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
          Integer.parseInt(f[4]), Files.exists(tally) ? Files.readString(tally) : "",
          Files.exists(mvn) ? Files.readString(mvn) : ""));
    }
    return runs;
  }

  static List<SoakReport.Sample> samples(Path file) throws IOException {
    List<SoakReport.Sample> out = new ArrayList<>();
    if (!Files.exists(file)) {
      return out;
    }
    List<String> lines = Files.readAllLines(file);
    String[] header = lines.get(0).split(",", -1);
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", -1);
      if (f.length != header.length) {
        continue; // a line cut short
      }
      Map<String, Double> values = new LinkedHashMap<>();
      for (int i = 3; i < f.length; i++) {
        if (!f[i].isBlank()) {
          try {
            values.put(header[i], Double.parseDouble(f[i]));
          } catch (NumberFormatException e) {
            // NaN or garbage from a process that ended while sampled: no value
          }
        }
      }
      out.add(new SoakReport.Sample(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), values));
    }
    out.sort(Comparator.comparingLong(SoakReport.Sample::time));
    return out;
  }

}
