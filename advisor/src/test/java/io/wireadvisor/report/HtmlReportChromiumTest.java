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
    assumeTrue(chromium() != null, "no Chromium installed (bin/ensure-chromium); HTML not rendered");
    Comparison c = Comparison.of(BankLikeFixtures.scenario(1), BankLikeFixtures.scenario(7), BankLikeFixtures.tidb(1));
    Path html = dir.resolve("report.html");
    Files.write(html, Reports.html(c).getBytes(StandardCharsets.UTF_8));

    String dom = runChromium("--dump-dom", html.toUri().toString());
    assertThat(dom).contains("id=\"per-statement\"", "id=\"before-after\"", "id=\"top-statements-chart\"");
    assertThat(dom).contains("COM_STMT_EXECUTE", "tidb-cached-tables", "class=\"MET\"");
    // Now vs after, stacked: scenario 1's now is COM_QUERY and probes; after adds EXECUTE,
    // PREPARE; the before/after of the diff has both profiles' commands.
    assertThat(dom.split("class=\"bar\"", -1).length - 1).isGreaterThanOrEqualTo(2 + 3 + 2);

    Path png = dir.resolve("shot.png");
    runChromium("--screenshot=" + png, "--window-size=1200,2000", html.toUri().toString());
    BufferedImage img = ImageIO.read(png.toFile());
    assertThat(img).isNotNull();
    // The now/after bars and the diff's status rows use these colours; a blank page has none.
    int query = 0;
    int probes = 0;
    for (int y = 0; y < img.getHeight(); y += 2) {
      for (int x = 0; x < img.getWidth(); x += 2) {
        int rgb = img.getRGB(x, y) & 0xffffff;
        if (rgb == 0x4f81bd) {
          query++;
        } else if (rgb == 0xf2a93b) {
          probes++;
        }
      }
    }
    System.out.println("screenshot " + img.getWidth() + "x" + img.getHeight() + ": COM_QUERY-colour px " + query + ", probe-colour px " + probes);
    assertThat(query).isGreaterThan(100);
    assertThat(probes).as("probes are split out of COM_QUERY").isGreaterThan(20);
  }

  /** Measures the page in the browser: sections present and sized, nothing beyond the viewport. */
  private static final String MEASURE =
      "<script>(function(){var W=window.innerWidth;var r={w:W,scroll:document.documentElement.scrollWidth,"
          + "sections:{},clipped:[]};['summary','charts','top-statements','changes','recommendations',"
          + "'withheld','details'].forEach(function(id){var e=document.getElementById(id);"
          + "r.sections[id]=e?Math.round(e.getBoundingClientRect().height):-1;});"
          + "document.querySelectorAll('body *').forEach(function(e){"
          + "if(e.parentElement&&e.parentElement.closest('.table-wrap,svg,pre'))return;var b=e.getBoundingClientRect();"
          + "if(b.right>W+1||b.left<-1)r.clipped.push(e.tagName+'#'+(e.id||'')+' '+Math.round(b.left)+'..'"
          + "+Math.round(b.right));if(!e.closest('svg')&&!e.classList.contains('table-wrap')&&e.clientWidth>0"
          + "&&e.scrollWidth>e.clientWidth+1)r.clipped.push('text beyond '+e.tagName+'#'+(e.id||'')+"
          + "' '+e.scrollWidth+'>'+e.clientWidth);});var t=window.parent===window?document:window.parent.document;"
          + "t.body.setAttribute('data-layout',JSON.stringify(r));})();</script>";

  @Test
  void readableAt1400PixelsAndOnAPhone() throws Exception {
    assumeTrue(chromium() != null, "no Chromium installed (bin/ensure-chromium); layout not checked");
    String page = Reports.html(io.wireadvisor.advisor.Advisor.analyze(BankLikeFixtures.scenario(1), BankLikeFixtures.tidb(1)));
    Path html = dir.resolve("layout.html");
    Files.write(html, page.replace("</body>", MEASURE + "</body>").getBytes(StandardCharsets.UTF_8));

    Path shots = Path.of("target", "report-screenshots");
    Files.createDirectories(shots);
    String measured = page.replace("</body>", MEASURE + "</body>");
    for (int width : new int[] {1400, 390}) {
      // Headless Chromium's windows are at least 500 px wide: a phone is a 390 px frame in one.
      Path at390 = dir.resolve("phone.html");
      Files.write(at390, ("<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"width:390px;"
          + "height:2400px;border:0\" srcdoc=\"" + HtmlReport.esc(measured) + "\"></iframe></body></html>")
          .getBytes(StandardCharsets.UTF_8));
      Path target = width < 500 ? at390 : html;
      String dom = runChromium("--window-size=" + Math.max(width, 500) + ",900", "--dump-dom", target.toUri().toString());
      int at = dom.indexOf("data-layout=\"");
      assertThat(at).as("the measuring script ran at %d px", width).isPositive();
      String layout = dom.substring(at + 13, dom.indexOf('"', at + 13)).replace("&quot;", "\"");
      com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper().readTree(layout);
      System.out.println(width + " px: " + layout);
      assertThat(r.path("w").asInt()).as("viewport").isEqualTo(width);
      assertThat(r.path("scroll").asInt()).as("no sideways scrolling of the page at %d px", width).isLessThanOrEqualTo(width);
      for (String section : new String[] {"summary", "charts", "top-statements", "changes", "recommendations", "withheld", "details"}) {
        assertThat(r.path("sections").path(section).asInt()).as("section %s at %d px", section, width).isPositive();
      }
      assertThat(r.path("clipped")).as("elements beyond the viewport at %d px", width).isEmpty();
      Path png = shots.resolve("report-" + width + ".png");
      runChromium("--screenshot=" + png.toAbsolutePath(), "--window-size=" + Math.max(width, 500) + ",2400",
          target.toUri().toString());
      assertThat(ImageIO.read(png.toFile()).getWidth()).isEqualTo(Math.max(width, 500));
    }
  }

  /**
   * The top statements' wire-pattern column, measured in the page: each cell's rendered width in
   * px and in characters of its own font ('0' wide), and the lines its text takes.
   */
  private static final String MEASURE_PATTERN =
      "<script>(function(){var r={cells:[]};var t=document.querySelector('#top-statements table');"
          + "var col=-1;t.querySelectorAll('th').forEach(function(h,i){if(h.textContent==='wire pattern')col=i;});"
          + "r.col=col;t.querySelectorAll('tr').forEach(function(tr){var td=tr.children[col];"
          + "if(!td||td.tagName!=='TD')return;var z=document.createElement('span');z.textContent='0';"
          + "td.appendChild(z);var ch=z.getBoundingClientRect().width;td.removeChild(z);"
          + "var range=document.createRange();range.selectNodeContents(td);var tops={};"
          + "Array.prototype.forEach.call(range.getClientRects(),function(q){tops[Math.round(q.top)]=1;});"
          + "var w=td.clientWidth-parseFloat(getComputedStyle(td).paddingLeft)-parseFloat(getComputedStyle(td).paddingRight);"
          + "r.cells.push({text:td.textContent,px:Math.round(w),chars:Math.round(w/ch*10)/10,"
          + "lines:Object.keys(tops).length});});"
          + "var p=window.parent===window?document:window.parent.document;"
          + "p.body.setAttribute('data-pattern',JSON.stringify(r));})();</script>";

  @Test
  void theWirePatternColumnShowsEachPatternOnOneLine() throws Exception {
    assumeTrue(chromium() != null, "no Chromium installed (bin/ensure-chromium); layout not checked");
    // Scenario 1's statements are long (the SQL column wants every pixel) and its patterns mix
    // commands ("QUERY (probe)", "PREPARE/EXECUTE/CLOSE"): the squeeze of issue 24, point 8.
    String page = Reports.html(Advisor.analyze(BankLikeFixtures.scenario(1), BankLikeFixtures.tidb(1)))
        .replace("</body>", MEASURE_PATTERN + "</body>");
    Path html = dir.resolve("pattern.html");
    Files.write(html, page.getBytes(StandardCharsets.UTF_8));
    Path phone = dir.resolve("pattern-phone.html");
    Files.write(phone, ("<!DOCTYPE html><html><body style=\"margin:0\"><iframe style=\"width:390px;"
        + "height:2400px;border:0\" srcdoc=\"" + HtmlReport.esc(page) + "\"></iframe></body></html>")
        .getBytes(StandardCharsets.UTF_8));
    for (int width : new int[] {1400, 390}) {
      String dom = runChromium("--window-size=" + Math.max(width, 500) + ",900", "--dump-dom",
          (width < 500 ? phone : html).toUri().toString());
      int at = dom.indexOf("data-pattern=\"");
      assertThat(at).as("the measuring script ran at %d px", width).isPositive();
      String json = dom.substring(at + 14, dom.indexOf('"', at + 14)).replace("&quot;", "\"");
      System.out.println(width + " px: wire-pattern column " + json);
      com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
      assertThat(r.path("col").asInt()).as("the wire pattern column").isPositive();
      assertThat(r.path("cells")).as("rows of top statements").isNotEmpty();
      for (com.fasterxml.jackson.databind.JsonNode cell : r.path("cells")) {
        String text = cell.path("text").asText();
        assertThat(cell.path("lines").asInt()).as("lines of '%s' at %d px (%s)", text, width, cell).isEqualTo(1);
        // One line of the pattern: as many characters wide as the pattern has (less a little for
        // glyphs narrower than '0'), never the three characters of the bug.
        assertThat(cell.path("chars").asDouble()).as("width of '%s' in characters at %d px", text, width)
            .isGreaterThanOrEqualTo(Math.min(text.length() * 0.75, 12));
      }
    }
  }

  @Test
  void htmlIsSelfContained() {
    String html = Reports.html(Advisor.analyze(BankLikeFixtures.scenario(1), BankLikeFixtures.tidb(1)));
    assertThat(html).doesNotContain("<script", "src=\"http", "href=\"http", "@import");
    assertThat(html).contains("<svg", "ALTER TABLE `bank`.`t12` CACHE;", "id=\"summary\"",
        "spring.datasource.hikari.data-source-properties.useServerPrepStmts=true");
  }
}
