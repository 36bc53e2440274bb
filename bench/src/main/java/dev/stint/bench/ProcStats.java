package dev.stint.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** CPU time and memory of a process from /proc (Linux only). */
final class ProcStats {
  /** Clock ticks per second of /proc/<pid>/stat; 100 on every Linux this runs on (sysconf(_SC_CLK_TCK)). */
  private static final double TICKS = clockTicks();

  /** @param cpuSeconds user + system CPU time so far; @param rssKib resident now; @param peakRssKib VmHWM. */
  record Sample(double cpuSeconds, long rssKib, long peakRssKib) { }

  private ProcStats() {
  }

  /** The process's CPU and memory, or null when it is gone. */
  static Sample read(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
      // fields after "(comm)": state is field 3, utime 14, stime 15
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      double cpu = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / TICKS;
      long rss = 0;
      long hwm = 0;
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("VmRSS:")) {
          rss = kib(line);
        } else if (line.startsWith("VmHWM:")) {
          hwm = kib(line);
        }
      }
      return new Sample(cpu, rss, hwm);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** Resets the peak resident set size (VmHWM) to the current one, so that each scenario gets its own peak. */
  static void resetPeak(long pid) {
    try {
      Files.writeString(Path.of("/proc", Long.toString(pid), "clear_refs"), "5");
    } catch (IOException e) {
      // not allowed (another user's process): the peak then covers the process's whole life, said in the report
    }
  }

  /** {@code /proc/loadavg}: the 1, 5 and 15 minute load averages. */
  static double[] loadAverage() {
    try {
      String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
      return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
    } catch (IOException | RuntimeException e) {
      return new double[] {Double.NaN, Double.NaN, Double.NaN};
    }
  }

  private static long kib(String line) {
    return Long.parseLong(line.replaceAll("[^0-9]", ""));
  }

  private static double clockTicks() {
    try {
      Process p = new ProcessBuilder(List.of("getconf", "CLK_TCK")).redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes()).trim();
      p.waitFor();
      return Double.parseDouble(out);
    } catch (IOException | RuntimeException e) {
      return 100;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 100;
    }
  }
}
