package dev.stint.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Path2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;

/** A line chart drawn with java.awt into a PNG (headless, no native dependencies): series, shaded spans, a legend. */
final class Plot {
  private static final int W = 900;
  private static final int H = 520;
  private static final int LEFT = 80;
  private static final int RIGHT = 30;
  private static final int TOP = 50;
  private static final int BOTTOM = 60;
  private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
      new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x17becf)};

  private record Series(String name, double[] x, double[] y, boolean step) { }

  private record Span(String label, double from, double to) { }

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series = new ArrayList<>();
  private final List<Span> spans = new ArrayList<>();

  Plot(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  Plot line(String name, double[] x, double[] y) {
    series.add(new Series(name, x, y, false));
    return this;
  }

  /** The empirical CDF of sorted values, as a step line from 0 to 1. */
  Plot cdf(String name, double[] sorted) {
    double[] x = new double[sorted.length];
    double[] y = new double[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      x[i] = sorted[i];
      y[i] = (i + 1.0) / sorted.length;
    }
    series.add(new Series(name, x, y, true));
    return this;
  }

  /** A shaded span of the x axis (e.g. a scenario), labelled at the top. */
  Plot span(String label, double from, double to) {
    spans.add(new Span(label, from, to));
    return this;
  }

  void write(Path png) throws IOException {
    BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, W, H);
    double xMax = niceCeil(max(true));
    double yMax = niceCeil(max(false));
    double xStep = niceStep(xMax);
    double yStep = niceStep(yMax);
    int pw = W - LEFT - RIGHT;
    int ph = H - TOP - BOTTOM;
    Axis ax = new Axis(xMax, yMax, pw, ph);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    for (int i = 0; i < spans.size(); i++) {
      Span s = spans.get(i);
      int x0 = ax.x(s.from());
      int x1 = ax.x(Math.min(s.to(), xMax));
      g.setColor(i % 2 == 0 ? new Color(0xEEF2F8) : new Color(0xF6F1E8));
      g.fillRect(x0, TOP, Math.max(1, x1 - x0), ph);
      g.setColor(Color.DARK_GRAY);
      g.drawString(s.label(), x0 + 3, TOP + 14 + (i % 2) * 14);
    }
    g.setColor(new Color(0xDDDDDD));
    for (double v = 0; v <= xMax + 1e-9; v += xStep) {
      g.drawLine(ax.x(v), TOP, ax.x(v), TOP + ph);
    }
    for (double v = 0; v <= yMax + 1e-9; v += yStep) {
      g.drawLine(LEFT, ax.y(v), LEFT + pw, ax.y(v));
    }
    g.setColor(Color.BLACK);
    g.drawRect(LEFT, TOP, pw, ph);
    FontMetrics fm = g.getFontMetrics();
    for (double v = 0; v <= xMax + 1e-9; v += xStep) {
      String t = label(v, xStep);
      g.drawString(t, ax.x(v) - fm.stringWidth(t) / 2, TOP + ph + 18);
    }
    for (double v = 0; v <= yMax + 1e-9; v += yStep) {
      String t = label(v, yStep);
      g.drawString(t, LEFT - 8 - fm.stringWidth(t), ax.y(v) + 4);
    }
    g.drawString(xLabel, LEFT + pw / 2 - fm.stringWidth(xLabel) / 2, H - 18);
    Graphics2D gy = (Graphics2D) g.create();
    gy.rotate(-Math.PI / 2);
    gy.drawString(yLabel, -(TOP + ph / 2) - fm.stringWidth(yLabel) / 2, 20);
    gy.dispose();
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    g.drawString(title, LEFT, 30);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    g.setStroke(new BasicStroke(2f));
    for (int i = 0; i < series.size(); i++) {
      g.setColor(PALETTE[i % PALETTE.length]);
      g.draw(path(series.get(i), ax));
    }
    legend(g, fm, pw);
    g.dispose();
    ImageIO.write(img, "png", png.toFile());
  }

  private void legend(Graphics2D g, FontMetrics fm, int pw) {
    int width = series.stream().mapToInt(s -> fm.stringWidth(s.name())).max().orElse(0) + 40;
    int x = LEFT + pw - width - 10;
    int y = TOP + 10 + (spans.isEmpty() ? 0 : 28);
    g.setColor(new Color(255, 255, 255, 220));
    g.fillRect(x, y, width, series.size() * 18 + 8);
    g.setColor(Color.GRAY);
    g.drawRect(x, y, width, series.size() * 18 + 8);
    for (int i = 0; i < series.size(); i++) {
      int ly = y + 16 + i * 18;
      g.setColor(PALETTE[i % PALETTE.length]);
      g.fillRect(x + 8, ly - 6, 20, 4);
      g.setColor(Color.BLACK);
      g.drawString(series.get(i).name(), x + 34, ly);
    }
  }

  private static Path2D path(Series s, Axis ax) {
    Path2D p = new Path2D.Double();
    boolean started = false;
    double prevY = 0;
    for (int i = 0; i < s.x().length; i++) {
      double x = s.x()[i];
      double y = s.y()[i];
      if (Double.isNaN(x) || Double.isNaN(y)) {
        started = false;
        continue;
      }
      if (!started) {
        p.moveTo(ax.x(x), ax.y(s.step() ? 0 : y));
        started = true;
      }
      if (s.step()) {
        p.lineTo(ax.x(x), ax.y(prevY));
      }
      p.lineTo(ax.x(x), ax.y(y));
      prevY = y;
    }
    return p;
  }

  private double max(boolean x) {
    double m = 0;
    for (Series s : series) {
      for (double v : x ? s.x() : s.y()) {
        if (!Double.isNaN(v)) {
          m = Math.max(m, v);
        }
      }
    }
    if (x) {
      for (Span s : spans) {
        m = Math.max(m, s.to());
      }
    }
    return m <= 0 ? 1 : m;
  }

  static double niceStep(double max) {
    double raw = max / 5;
    double mag = Math.pow(10, Math.floor(Math.log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * mag;
  }

  static double niceCeil(double max) {
    double step = niceStep(max);
    return Math.ceil(max / step - 1e-9) * step;
  }

  private static String label(double v, double step) {
    return step >= 1 ? String.format("%.0f", v) : step >= 0.1 ? String.format("%.1f", v) : String.format("%.2f", v);
  }

  private record Axis(double xMax, double yMax, int pw, int ph) {
    int x(double v) {
      return LEFT + (int) Math.round(v / xMax * pw);
    }

    int y(double v) {
      return TOP + ph - (int) Math.round(v / yMax * ph);
    }
  }
}
