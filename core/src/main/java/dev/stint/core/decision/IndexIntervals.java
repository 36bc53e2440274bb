package dev.stint.core.decision;

import java.util.SortedSet;

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
