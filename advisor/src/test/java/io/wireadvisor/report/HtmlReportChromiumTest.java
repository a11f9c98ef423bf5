package io.wireadvisor.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.wireadvisor.advisor.Advisor;
import io.wireadvisor.advisor.BankLikeFixtures;
import io.wireadvisor.advisor.Comparison;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders the HTML report in headless Chromium. Skips (with the reason) where no Chromium is
 * installed, e.g. CI machines with only a JDK and Maven.
 */
class HtmlReportChromiumTest {
  @TempDir Path dir;

  static String chromium() {
    for (String c : new String[] {"/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"}) {
      if (new File(c).canExecute()) {
        return c;
      }
    }
    return null;
  }

  String runChromium(String... extra) throws Exception {
    String exe = chromium();
    List<String> cmd = new ArrayList<>(Arrays.asList(exe, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--user-data-dir=" + dir.resolve("profile")));
    cmd.addAll(Arrays.asList(extra));
    Path out = dir.resolve("chromium.out");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(false).redirectOutput(out.toFile())
        .redirectError(dir.resolve("chromium.err").toFile()).start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("chromium did not finish in 90 s");
    }
    return new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
  }

  @Test
  void chartsRenderInHeadlessChromium() throws Exception {
    assumeTrue(chromium() != null, "no Chromium installed (apt-get install -y chromium); HTML not rendered");
    Comparison c = Comparison.of(BankLikeFixtures.scenario(1), BankLikeFixtures.scenario(7), BankLikeFixtures.tidb(1));
    Path html = dir.resolve("report.html");
    Files.write(html, Reports.html(c).getBytes(StandardCharsets.UTF_8));

    String dom = runChromium("--dump-dom", html.toUri().toString());
    assertThat(dom).contains("<svg class=\"chart\" id=\"command-mix\"", "id=\"per-statement\"", "id=\"before-after\"");
    assertThat(dom).contains("COM_STMT_EXECUTE", "tidb-cached-tables");
    // Scenario 1 sends only COM_QUERY (1 bar in each single-profile chart); before/after covers
    // COM_QUERY, COM_STMT_PREPARE and COM_STMT_EXECUTE with two bars each.
    assertThat(dom.split("class=\"bar\"", -1).length - 1).isEqualTo(1 + 1 + 3 * 2);

    Path png = dir.resolve("shot.png");
    runChromium("--screenshot=" + png, "--window-size=1200,2000", html.toUri().toString());
    BufferedImage img = ImageIO.read(png.toFile());
    assertThat(img).isNotNull();
    // The bars use two colours; a blank page would have neither.
    int before = 0;
    int after = 0;
    for (int y = 0; y < img.getHeight(); y += 2) {
      for (int x = 0; x < img.getWidth(); x += 2) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        if (rgb == 0xc0504d) {
          before++;
        } else if (rgb == 0x4f81bd) {
          after++;
        }
      }
    }
    System.out.println("screenshot " + img.getWidth() + "x" + img.getHeight() + ": before-colour px " + before + ", after-colour px " + after);
    assertThat(before).isGreaterThan(100);
    assertThat(after).isGreaterThan(100);
  }

  @Test
  void htmlIsSelfContained() {
    String html = Reports.html(Advisor.analyze(BankLikeFixtures.scenario(1), BankLikeFixtures.tidb(1)));
    assertThat(html).doesNotContain("<script", "src=\"http", "href=\"http", "@import");
    assertThat(html).contains("<svg", "ALTER TABLE `bank`.`t12` CACHE;");
  }
}
