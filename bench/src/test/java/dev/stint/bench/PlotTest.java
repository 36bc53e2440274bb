package dev.stint.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlotTest {
  @Test
  void niceAxisSteps() {
    assertThat(Plot.niceStep(10)).isEqualTo(2.0);
    assertThat(Plot.niceStep(7)).isEqualTo(2.0);
    assertThat(Plot.niceStep(0.9)).isEqualTo(0.2);
    assertThat(Plot.niceCeil(7.3)).isEqualTo(8.0);
    assertThat(Plot.niceCeil(1234)).isEqualTo(1250.0);
  }

  @Test
  void writesAPngHeadless(@TempDir Path dir) throws Exception {
    System.setProperty("java.awt.headless", "true");
    Path png = dir.resolve("p.png");
    new Plot("t", "x", "y").cdf("a", new double[] {0.5, 1, 2}).line("b", new double[] {0, 1}, new double[] {0, 1})
        .span("s", 0, 1).write(png);
    BufferedImage img = ImageIO.read(png.toFile());
    assertThat(Files.size(png)).isPositive();
    assertThat(img.getWidth()).isEqualTo(900);
  }
}
