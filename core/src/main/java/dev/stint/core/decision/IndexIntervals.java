package dev.stint.core.decision;

import java.util.SortedSet;
import java.util.TreeSet;

/** Replica indexes in batch/v1 Job's interval format: {@code [0, 2, 3, 4, 7]} is {@code "0,2-4,7"}. */
final class IndexIntervals {

  private IndexIntervals() { }

  static String format(SortedSet<Integer> indexes) {
    StringBuilder out = new StringBuilder();
    Integer start = null;
    Integer previous = null;
    for (int i : indexes) {
      if (previous != null && i == previous + 1) {
        previous = i;
        continue;
      }
      append(out, start, previous);
      start = i;
      previous = i;
    }
    append(out, start, previous);
    return out.toString();
  }

  /** The indexes of a string in that format; empty for null or blank. */
  static SortedSet<Integer> parse(String intervals) {
    SortedSet<Integer> out = new TreeSet<>();
    if (intervals == null || intervals.isBlank()) {
      return out;
    }
    for (String part : intervals.split(",")) {
      int dash = part.indexOf('-');
      int from = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).trim());
      int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1).trim());
      for (int i = from; i <= to; i++) {
        out.add(i);
      }
    }
    return out;
  }

  private static void append(StringBuilder out, Integer start, Integer end) {
    if (start == null) {
      return;
    }
    if (out.length() > 0) {
      out.append(',');
    }
    out.append(start);
    if (end > start) {
      out.append('-').append(end);
    }
  }
}
