package dev.stint.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;

/**
 * A picture of some of the Grafana dashboard's panels, drawn without Grafana: each panel's first query, as
 * deploy/monitoring/dashboard.json has it, run over a time range by the real Prometheus of a test, one line per series,
 * labelled as the panel's legend format says. For docs/operations.md; the numbers are the test's, not a cluster's.
 */
final class DashboardPicture {
  private static final int COLUMNS = 3;
  private static final int PANEL_W = 420;
  private static final int PANEL_H = 250;
  private static final Color[] PALETTE = {new Color(0x73bf69), new Color(0xf2cc0c), new Color(0x5794f2),
      new Color(0xff780a), new Color(0xb877d9), new Color(0xf2495c), new Color(0x8ab8ff), new Color(0x96d98d)};

  /** A panel to draw: its title, its query (Grafana's variables replaced) and legend format. */
  record Panel(String title, String query, String legend) { }

  private DashboardPicture() { }

  /** The panels of the dashboard whose title is in {@code titles}, in that order, with their first query. */
  static List<Panel> panels(JsonNode dashboard, List<String> titles) {
    List<Panel> panels = new ArrayList<>();
    for (String title : titles) {
      for (JsonNode p : dashboard.path("panels")) {
        if (title.equals(p.path("title").asText())) {
          JsonNode target = p.path("targets").path(0);
          panels.add(new Panel(title, target.path("expr").asText().replace("$job", LocalPrometheus.JOB)
              .replace("$cluster", ".*").replace("$__rate_interval", "15s"), target.path("legendFormat").asText()));
        }
      }
    }
    return panels;
  }

  /** Draws the panels over [start, end] (Unix seconds) into a PNG. */
  static void draw(LocalPrometheus prometheus, List<Panel> panels, double start, double end, Path png)
      throws IOException {
    int rows = (panels.size() + COLUMNS - 1) / COLUMNS;
    BufferedImage image = new BufferedImage(COLUMNS * PANEL_W, rows * PANEL_H + 40, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(new Color(0x111217));
    g.fillRect(0, 0, image.getWidth(), image.getHeight());
    g.setColor(new Color(0xccccdc));
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
    g.drawString("Stint (deploy/monitoring/dashboard.json): some panels over an integration test's run", 12, 26);
    for (int i = 0; i < panels.size(); i++) {
      drawPanel(g, prometheus, panels.get(i), start, end, (i % COLUMNS) * PANEL_W, 40 + (i / COLUMNS) * PANEL_H);
    }
    g.dispose();
    ImageIO.write(image, "png", png.toFile());
  }

  private static void drawPanel(Graphics2D g, LocalPrometheus prometheus, Panel panel, double start, double end,
                                int x0, int y0) {
    g.setColor(new Color(0x181b1f));
    g.fillRect(x0 + 6, y0 + 6, PANEL_W - 12, PANEL_H - 12);
    g.setColor(new Color(0xccccdc));
    g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
    g.drawString(panel.title(), x0 + 14, y0 + 24);
    JsonNode result = prometheus.api("/api/v1/query_range?query=" + URLEncoder.encode(panel.query(),
        StandardCharsets.UTF_8) + "&start=" + start + "&end=" + end + "&step=2").path("data").path("result");
    double max = 0;
    for (JsonNode series : result) {
      for (JsonNode v : series.path("values")) {
        double value = Double.parseDouble(v.path(1).asText());
        if (Double.isFinite(value)) {
          max = Math.max(max, value);
        }
      }
    }
    max = max == 0 ? 1 : max * 1.1;
    int left = x0 + 56;
    int right = x0 + PANEL_W - 16;
    int top = y0 + 36;
    int bottom = y0 + PANEL_H - 62;
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
    for (int t = 0; t <= 4; t++) {
      int y = bottom - (bottom - top) * t / 4;
      g.setColor(new Color(0x2c3235));
      g.drawLine(left, y, right, y);
      g.setColor(new Color(0x8e8e8e));
      g.drawString(format(max * t / 4), x0 + 12, y + 4);
    }
    g.drawString(String.format(Locale.ROOT, "%.0f s", end - start), right - 30, bottom + 14);
    int index = 0;
    int legendX = x0 + 14;
    int legendY = bottom + 30;
    for (JsonNode series : result) {
      Color color = PALETTE[index++ % PALETTE.length];
      g.setColor(color);
      g.setStroke(new BasicStroke(1.6f));
      int px = -1;
      int py = -1;
      for (JsonNode v : series.path("values")) {
        double value = Double.parseDouble(v.path(1).asText());
        if (!Double.isFinite(value)) {
          px = -1;
          continue;
        }
        int x = left + (int) ((right - left) * (v.path(0).asDouble() - start) / (end - start));
        int y = bottom - (int) ((bottom - top) * value / max);
        if (px >= 0) {
          g.drawLine(px, py, x, y);
        }
        px = x;
        py = y;
      }
      String label = legend(panel.legend(), series.path("metric"));
      int width = g.getFontMetrics().stringWidth(label) + 22;
      if (legendX + width > x0 + PANEL_W - 10) {
        legendX = x0 + 14;
        legendY += 13;
      }
      if (legendY < y0 + PANEL_H - 8) {
        g.fillRect(legendX, legendY - 7, 10, 3);
        g.setColor(new Color(0xccccdc));
        g.drawString(label, legendX + 13, legendY - 2);
      }
      legendX += width;
    }
  }

  /** Grafana's legend format: {@code {{label}}} replaced by the series' value of that label. */
  private static String legend(String format, JsonNode metric) {
    String label = format;
    var names = metric.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      label = label.replace("{{" + name + "}}", metric.path(name).asText());
    }
    return label.replaceAll("\\{\\{[^}]*}}", "").trim();
  }

  private static String format(double value) {
    if (value >= 1024 * 1024) {
      return String.format(Locale.ROOT, "%.0f Mi", value / (1024 * 1024));
    }
    return value >= 10 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.2f", value);
  }
}
