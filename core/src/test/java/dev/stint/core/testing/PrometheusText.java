package dev.stint.core.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A scrape in the Prometheus text format, parsed into samples in the order they were written, so that tests assert
 * on what a Prometheus server would read rather than on substrings.
 */
public final class PrometheusText {
  /** One line: a series and its value. */
  public record Sample(String name, Map<String, String> labels, double value) {
    /** Whether every given {@code key, value} pair is among the labels. */
    public boolean has(String... labelPairs) {
      for (int i = 0; i < labelPairs.length; i += 2) {
        if (!labelPairs[i + 1].equals(labels.get(labelPairs[i]))) {
          return false;
        }
      }
      return true;
    }
  }

  private final List<Sample> samples;
  private final Map<String, String> types;

  private PrometheusText(List<Sample> samples, Map<String, String> types) {
    this.samples = samples;
    this.types = types;
  }

  public static PrometheusText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    Map<String, String> types = new LinkedHashMap<>();
    for (String line : text.split("\n")) {
      if (line.startsWith("# TYPE ")) {
        String[] parts = line.split(" ");
        types.put(parts[2], parts[3]);
      } else if (!line.isBlank() && !line.startsWith("#")) {
        samples.add(sample(line));
      }
    }
    return new PrometheusText(samples, types);
  }

  /** The samples of {@code name} whose labels include the given {@code key, value} pairs, in scrape order. */
  public List<Sample> samples(String name, String... labelPairs) {
    return samples.stream().filter(s -> s.name().equals(name) && s.has(labelPairs)).collect(Collectors.toList());
  }

  /** The sum of the matching samples' values; 0 when none matches. */
  public double value(String name, String... labelPairs) {
    return samples(name, labelPairs).stream().mapToDouble(Sample::value).sum();
  }

  /** The {@code # TYPE} of a metric family, or null. */
  public String type(String family) {
    return types.get(family);
  }

  /** Every sample. */
  public List<Sample> all() {
    return samples;
  }

  private static Sample sample(String line) {
    int brace = line.indexOf('{');
    if (brace < 0) {
      String[] parts = line.split(" ");
      return new Sample(parts[0], Map.of(), number(parts[1]));
    }
    Map<String, String> labels = new LinkedHashMap<>();
    int i = brace + 1;
    while (line.charAt(i) != '}') {
      int eq = line.indexOf('=', i);
      String key = line.substring(i, eq);
      StringBuilder value = new StringBuilder();
      int j = eq + 2; // past ="
      while (line.charAt(j) != '"') {
        if (line.charAt(j) == '\\') {
          j++;
          value.append(line.charAt(j) == 'n' ? '\n' : line.charAt(j));
        } else {
          value.append(line.charAt(j));
        }
        j++;
      }
      labels.put(key, value.toString());
      i = line.charAt(j + 1) == ',' ? j + 2 : j + 1;
    }
    String rest = line.substring(i + 1).trim();
    return new Sample(line.substring(0, brace), labels, number(rest.split(" ")[0]));
  }

  private static double number(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(text);
    };
  }
}
