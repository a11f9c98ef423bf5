package io.wireadvisor.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.wireadvisor.advisor.BankLikeFixtures;
import io.wireadvisor.profile.ProfileJson;
import io.wireadvisor.profile.TrafficProfile;
import io.wireadvisor.server.ServerViewJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WireAdvisorCliTest {
  @TempDir Path dir;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  Map<String, String> env = new HashMap<>();

  int run(String... args) {
    return WireAdvisorCli.run(args, new PrintWriter(out), new PrintWriter(err), env);
  }

  Path write(String name, TrafficProfile p) throws Exception {
    Path f = dir.resolve(name);
    ProfileJson.writeFile(p, f);
    return f;
  }

  Path view(int scenario) throws Exception {
    Path f = dir.resolve("view" + scenario + ".json");
    Files.write(f, ServerViewJson.toJson(BankLikeFixtures.tidb(scenario)).getBytes(StandardCharsets.UTF_8));
    return f;
  }

  @Test
  void analyzeExitsOneWithRecommendationsAndZeroWithNothingToDo() throws Exception {
    Path s1 = write("s1.json", BankLikeFixtures.scenario(1));
    assertThat(run("analyze", s1.toString(), "--server-view", view(1).toString())).isEqualTo(1);
    assertThat(out.toString()).contains("server-prepared-statements", "tidb-cached-tables",
        "prepStmtCacheSize=125", "ALTER TABLE `bank`.`t59` CACHE;");

    Path s7 = write("s7.json", BankLikeFixtures.scenario(7));
    assertThat(run("analyze", s7.toString(), "--server-view", view(7).toString())).isEqualTo(0);
    assertThat(out.toString()).contains("Nothing to do");
  }

  @Test
  void analyzeWritesJsonToAFile() throws Exception {
    Path s1 = write("s1.json", BankLikeFixtures.scenario(1));
    Path report = dir.resolve("out/report.json");
    assertThat(run("analyze", s1.toString(), "--format", "json", "-o", report.toString())).isEqualTo(1);
    JsonNode root = new ObjectMapper().readTree(report.toFile());
    assertThat(root.path("schema").asText()).isEqualTo("wire-advisor/analysis");
    assertThat(root.path("recommendations")).hasSize(3);
    assertThat(root.path("recommendations").get(1).path("change").path("jdbcProperties")
        .path("prepStmtCacheSqlLimit").asText()).isEqualTo("2048");
    assertThat(root.path("profile").path("commands").path("COM_QUERY").asLong()).isEqualTo(1_500_000L);
  }

  @Test
  void badProfileFileExitsTwoNamingTheField() throws Exception {
    Path bad = dir.resolve("bad.json");
    String json = ProfileJson.toJson(BankLikeFixtures.scenario(1)).replaceFirst("\"textExecutes\" : 5000", "\"textExecutes\" : \"5000\"");
    Files.write(bad, json.getBytes(StandardCharsets.UTF_8));
    assertThat(json).contains("\"textExecutes\" : \"5000\"");
    assertThat(run("analyze", bad.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("bad.json").contains("textExecutes");
  }

  @Test
  void mergeThenDiffShowsWhichExpectationsWereMet() throws Exception {
    Path a = write("a.json", BankLikeFixtures.scenario(1));
    Path merged = dir.resolve("merged.json");
    assertThat(run("merge", a.toString(), a.toString(), "-o", merged.toString())).isEqualTo(0);
    assertThat(ProfileJson.readFile(merged).totalCommands()).isEqualTo(2 * BankLikeFixtures.scenario(1).totalCommands());

    Path after = write("s5.json", BankLikeFixtures.scenario(5));
    assertThat(run("diff", a.toString(), after.toString())).isEqualTo(0);
    assertThat(out.toString()).contains("MET             server-prepared-statements")
        .contains("CLOSE per EXECUTE goes from n/a to at most 0.05; after: 0.00");

    Path half = write("s3.json", BankLikeFixtures.scenario(3));
    assertThat(run("diff", a.toString(), half.toString())).isEqualTo(1);
    assertThat(out.toString()).contains("NOT_MET");
  }

  @Test
  void diffExitsOneWhenCommandsPerStatementRoseOrErrorsAppearedThoughEveryExpectationIsMet() throws Exception {
    Path before = write("s2.json", BankLikeFixtures.scenario(2));
    Path clean = write("s5.json", BankLikeFixtures.scenario(5));
    assertThat(run("diff", before.toString(), clean.toString())).isEqualTo(0);
    assertThat(out.toString()).doesNotContain("REGRESSED");

    // Connector/J 8.0.x's statement cache: a COM_STMT_RESET before each reuse.
    TrafficProfile resets = BankLikeFixtures.scenario(5);
    long n = 0;
    for (io.wireadvisor.profile.ShapeStats s : resets.shapes().values()) {
      long r = Math.max(0, s.count(io.wireadvisor.profile.Via.EXECUTES) - s.count(io.wireadvisor.profile.Via.PREPARES));
      s.add(io.wireadvisor.profile.Via.RESETS, r);
      n += r;
    }
    resets.addCommand(io.wireadvisor.profile.CommandType.STMT_RESET, new io.wireadvisor.profile.CommandStats(n, null));
    out.getBuffer().setLength(0);
    assertThat(run("diff", before.toString(), write("resets.json", resets).toString())).isEqualTo(1);
    assertThat(out.toString()).contains("REGRESSED       wire commands per business statement rose from 1.10 to 2.10")
        .contains("COM_STMT_RESET 0.00 -> 1.00 per statement").doesNotContain("NOT_MET");

    TrafficProfile errors = BankLikeFixtures.scenario(5);
    io.wireadvisor.profile.ShapeStats failing = errors.shapes().values().iterator().next();
    failing.add(io.wireadvisor.profile.Via.ERRORS, 22);
    out.getBuffer().setLength(0);
    assertThat(run("diff", before.toString(), write("errors.json", errors).toString(), "--format", "json")).isEqualTo(1);
    JsonNode root = new ObjectMapper().readTree(out.toString());
    assertThat(root.path("allMet").asBoolean()).isTrue();
    assertThat(root.path("passed").asBoolean()).isFalse();
    assertThat(root.path("regressions").get(0).path("kind").asText()).isEqualTo("ERRORS");
    assertThat(root.path("regressions").get(0).path("details").get(0).asText())
        .contains(failing.digestText()).contains("errors 22 in");
  }

  @Test
  void everyCommandHasHelpAndUnknownOptionsAreErrors() {
    for (String c : new String[] {"analyze", "merge", "diff", "inspect"}) {
      assertThat(run(c, "--help")).isEqualTo(0);
    }
    assertThat(out.toString()).contains("--jdbc-url", "--format", "BEFORE", "--output");
    assertThat(run("analyze", "--no-such-flag", "x.json")).isEqualTo(2);
    assertThat(run("inspect", "--jdbc-url", "jdbc:nosuchdriver://x")).isEqualTo(2);
    assertThat(err.toString()).contains("error:");
  }

  // ---------------------------------------------------------------- passwords

  /** A URL no driver accepts: DriverManager's error echoes it, credentials included. */
  static final String LEAKY_URL =
      "jdbc:nosuchdriver://u:pw-in-url@127.0.0.1:1/db?user=u&password=pw-param";

  private void assertNoSecretPrinted(String... secrets) {
    for (String s : secrets) {
      assertThat(out.toString()).doesNotContain(s);
      assertThat(err.toString()).doesNotContain(s);
    }
  }

  @Test
  void aFailedConnectionNeverPrintsAPassword() {
    assertThat(run("inspect", "--jdbc-url", LEAKY_URL, "--user", "u", "--password=Sekr3t!"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("error:", "jdbc:nosuchdriver://u:****@127.0.0.1:1/db",
        "password=****");
    assertNoSecretPrinted("pw-in-url", "pw-param", "Sekr3t!");
  }

  @Test
  void aFailedConnectionOfAnalyzeNeverPrintsAPassword() throws Exception {
    Path s1 = write("s1.json", BankLikeFixtures.scenario(1));
    env.put(WireAdvisorCli.PASSWORD_ENV, "from-env-secret");
    assertThat(run("analyze", s1.toString(), "--jdbc-url",
        "jdbc:mysql://u:pw-in-url@127.0.0.1:1/db?password=pw-param&connectTimeout=2000"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("error: cannot inspect jdbc:mysql://u:****@127.0.0.1:1/db");
    assertNoSecretPrinted("pw-in-url", "pw-param", "from-env-secret");

    err.getBuffer().setLength(0);
    assertThat(run("diff", s1.toString(), s1.toString(), "--jdbc-url", LEAKY_URL, "--password",
        "Sekr3t!")).isEqualTo(2);
    assertThat(err.toString()).contains("warning:", "error: cannot inspect jdbc:nosuchdriver://u:****@");
    assertNoSecretPrinted("pw-in-url", "pw-param", "Sekr3t!");
  }

  @Test
  void aPasswordValueOnTheCommandLineWarnsThatPsShowsIt() {
    run("inspect", "--jdbc-url", LEAKY_URL, "--password", "Sekr3t!");
    assertThat(err.toString()).contains("warning:", "visible", "--password-file",
        WireAdvisorCli.PASSWORD_ENV);
    assertNoSecretPrinted("Sekr3t!");
  }

  @Test
  void theEnvironmentVariableGivesThePasswordWithoutAWarning() {
    env.put(WireAdvisorCli.PASSWORD_ENV, "from-env-secret");
    assertThat(run("inspect", "--jdbc-url", "jdbc:nosuchdriver://x?from-env-secret")).isEqualTo(2);
    assertThat(err.toString()).doesNotContain("warning:");
    assertNoSecretPrinted("from-env-secret");
  }

  @Test
  void thePasswordFileGivesItsFirstLineWithoutTheNewline() throws Exception {
    Path f = dir.resolve("pw");
    Files.write(f, "line one secret\r\nsecond line\n".getBytes(StandardCharsets.UTF_8));
    assertThat(WireAdvisorCli.readPasswordFile(f)).isEqualTo("line one secret");
    Files.write(f, "only\n".getBytes(StandardCharsets.UTF_8));
    assertThat(WireAdvisorCli.readPasswordFile(f)).isEqualTo("only");
    Files.write(f, new byte[0]);
    assertThat(WireAdvisorCli.readPasswordFile(f)).isEmpty();

    Files.write(f, "file-secret\n".getBytes(StandardCharsets.UTF_8));
    env.put(WireAdvisorCli.PASSWORD_ENV, "from-env-secret");
    // The option wins over the environment; the password is masked wherever a message echoes it.
    assertThat(run("inspect", "--jdbc-url", "jdbc:nosuchdriver://x?file-secret",
        "--password-file", f.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("****").doesNotContain("warning:");
    assertNoSecretPrinted("file-secret", "from-env-secret");
  }

  @Test
  void anUnreadablePasswordFileIsAClearErrorNamingIt() {
    Path missing = dir.resolve("no-such-password-file");
    assertThat(run("inspect", "--jdbc-url", LEAKY_URL, "--password-file", missing.toString()))
        .isEqualTo(2);
    assertThat(err.toString()).contains("password file", missing.toString(), "no such file");
  }

  @Test
  void passwordAndPasswordFileTogetherAreAnError() throws Exception {
    Path f = dir.resolve("pw");
    Files.write(f, "x\n".getBytes(StandardCharsets.UTF_8));
    assertThat(run("inspect", "--jdbc-url", LEAKY_URL, "--password=Sekr3t!", "--password-file",
        f.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("not both");
    assertNoSecretPrinted("Sekr3t!");
  }

  // ---------------------------------------------------------------- profile limits

  @Test
  void aForgedHistogramPrecisionExitsTwoNamingFileAndField() throws Exception {
    Path bad = dir.resolve("forged.json");
    String json = ProfileJson.toJson(BankLikeFixtures.scenario(1))
        .replaceFirst("\"precisionBits\" : 7", "\"precisionBits\" : 10");
    Files.write(bad, json.getBytes(StandardCharsets.UTF_8));
    assertThat(run("analyze", bad.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("forged.json: connections.distributions.")
        .contains(".precisionBits: 10 is not allowed");
  }

  @Test
  void maxProfileSizeAndShapesAreEnforcedAndOverridable() throws Exception {
    Path s1 = write("s1.json", BankLikeFixtures.scenario(1));
    long size = Files.size(s1);
    assertThat(run("analyze", s1.toString(), "--max-profile-size", "1K")).isEqualTo(2);
    assertThat(err.toString()).contains("s1.json", "above the limit of 1024 bytes",
        "--max-profile-size");
    assertThat(run("analyze", s1.toString(), "--max-profile-size", String.valueOf(size)))
        .isEqualTo(1);
    assertThat(run("merge", s1.toString(), "--max-profile-shapes", "3", "-o",
        dir.resolve("m.json").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("shapes: holds more than 3 shapes");
    assertThat(run("analyze", s1.toString(), "--max-profile-size", "lots")).isEqualTo(2);
    assertThat(err.toString()).contains("--max-profile-size: expected bytes");
  }

  @Test
  void aMistypedPasswordOptionDoesNotEchoItsValue() {
    // Found in review: picocli's "Unknown option: '--pasword=S3cretPw'" was printed as it came.
    assertThat(run("analyze", "--pasword=S3cretPw", "x.json")).isEqualTo(2);
    assertThat(err.toString()).contains("--pasword=").doesNotContain("S3cretPw");
  }

  @Test
  void everyErrorNamesTheOptionAndTheValueInOneLineAndPointsToHelp() throws Exception {
    Path s1 = write("s1.json", BankLikeFixtures.scenario(1));
    String[][] cases = {
      {"--status-url notaurl: not an http:// or https:// URL", "analyze", s1.toString(), "--jdbc-url",
          "jdbc:mysql://127.0.0.1:1/x", "--status-url", "notaurl"},
      {"--status-url http://tidb:10080 is read together with --jdbc-url", "analyze", s1.toString(),
          "--status-url", "http://tidb:10080"},
      {"--server-view " + dir.resolve("missing.json") + ": no such file", "analyze", s1.toString(),
          "--server-view", dir.resolve("missing.json").toString()},
      {"did you mean: analyze?", "analyse", s1.toString()},
      {"did you mean: --format?", "analyze", "--formt", "json", s1.toString()},
    };
    for (String[] c : cases) {
      err.getBuffer().setLength(0);
      assertThat(run(java.util.Arrays.copyOfRange(c, 1, c.length))).as(c[0]).isEqualTo(2);
      assertThat(err.toString()).as(c[0]).contains(c[0]).contains("--help").doesNotContain("Usage:");
    }
    Path broken = dir.resolve("broken-view.json");
    Files.write(broken, "{\n".getBytes(StandardCharsets.UTF_8));
    err.getBuffer().setLength(0);
    assertThat(run("analyze", s1.toString(), "--server-view", broken.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--server-view " + broken + ": not valid JSON at line 2");
    err.getBuffer().setLength(0);
    assertThat(run("analyze", s1.toString(), "-o", dir.toString())).isEqualTo(2);
    assertThat(err.toString()).contains("-o " + dir + ": is a directory");
  }

  @Test
  void formatIsCaseInsensitiveAndOutputGoesToAPrivateFileInANewDirectory() throws Exception {
    Path s1 = write("s1.json", BankLikeFixtures.scenario(1));
    Path out = dir.resolve("new/dir/report.html");
    assertThat(run("analyze", "--format", "HTML", "-o", out.toString(), s1.toString())).isEqualTo(1);
    assertThat(Files.readString(out)).startsWith("<!DOCTYPE html>");
    assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out)))
        .isEqualTo("rw-------");
  }
}
