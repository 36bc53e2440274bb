package dev.stint.bench;

/** The driver's one clock: milliseconds since the driver started, from {@link System#nanoTime()}. */
final class Time {
  private static final long T0 = System.nanoTime();

  private Time() {
  }

  static long now() {
    return (System.nanoTime() - T0) / 1_000_000;
  }

  static double seconds(long millis) {
    return millis / 1000.0;
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
