package io.wireadvisor.agent.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.mysql.cj.conf.ConnectionUrl;
import com.mysql.cj.conf.HostInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * Every connection-string form of Connector/J's {@code ConnectionUrlParser} javadoc, with a
 * password in every position it can take, under every scheme the driver accepts.
 */
class JdbcUrlsTest {
  private static final String[] SCHEMES = {
    "jdbc:mysql:", "jdbc:mysql:loadbalance:", "jdbc:mysql:replication:", "mysqlx:",
    "jdbc:mysql+srv:", "jdbc:mysql+srv:loadbalance:", "jdbc:mysql+srv:replication:", "mysqlx+srv:",
  };

  /** Authorities (between "//" and "/db") with a secret in each place; "S3cr" marks the secret. */
  private static final String[][] AUTHORITIES = {
    // {authority, expected hosts}
    {"app:S3cret1@db:4000", "db:4000"},
    {"app:S3cret1@db", "db"},
    {"app@db:4000", "db:4000"},
    {":S3cret1@db:4000", "db:4000"},
    {"app:S3cr%40et@db:4000", "db:4000"},
    {"address=(host=db)(port=4000)(user=app)(password=S3cret2)", "db:4000"},
    {"address=(host=db)(user=app)(password=S3cret2)", "db"},
    {"address=(password=S3cret2)(host=db)(port=4000)", "db:4000"},
    {"app:S3cret1@address=(host=db)(port=4000)(password=S3cret2)", "db:4000"},
    {"(host=db,port=4000,password=S3cret3)", "db:4000"},
    {"(password=S3cret3,host=db,port=4000,user=app)", "db:4000"},
    {"app:S3cret1@(host=db,port=4000,password=S3cret3)", "db:4000"},
    {"[a:S3cret4@h1,a:S3cret4@h2]", "h1,h2"},
    {"a:S3cret1@[h1:4000,h2:4001]", "h1:4000,h2:4001"},
    {"a:S3cret4@h1:4000,a:S3cret4@h2:4001", "h1:4000,h2:4001"},
    {"[address=(host=h1)(password=S3cret2),(host=h2,port=4001,password=S3cret3),a:S3cret4@h3]",
        "h1,h2:4001,h3"},
    {"u:S3cret1@[::1]:4000", "[::1]:4000"},
    {"[::1]", "[::1]"},
    {"u:S3cret1@[fe80::1]:3306,[::1]:4000", "[fe80::1]:3306,[::1]:4000"},
    {"address=(host=db)(port=4000)(privateKey=S3cret5)(sslKeyPassword=S3cret6)", "db:4000"},
    {"(host=db,port=4000,xdevapi.auth=PLAIN,token=S3cret7)", "db:4000"},
    {"", ""},
  };

  private static final String[] TAILS = {
    "", "?user=app&password=S3cret8", "?password=S3cret8#S3cretfragment",
    "?sessionVariables=x='S3cret9'&connectionAttributes=k:S3cret9", "#S3cret10",
  };

  @Test
  void noSecretSurvivesAnyFormAndHostsPortsAndDatabaseDo() {
    int checked = 0;
    for (String scheme : SCHEMES) {
      for (String[] a : AUTHORITIES) {
        for (String tail : TAILS) {
          String url = scheme + "//" + a[0] + "/bank" + tail;
          String d = JdbcUrls.describe(url);
          assertThat(d).as(url).isEqualTo(scheme + "//" + a[1] + "/bank");
          assertThat(d.toLowerCase()).as(url).doesNotContain("s3cr").doesNotContain("app")
              .doesNotContain("password").doesNotContain("@").doesNotContain("=");
          checked++;
        }
      }
    }
    assertThat(checked).isEqualTo(SCHEMES.length * AUTHORITIES.length * TAILS.length);
  }

  /** The description addresses what the driver itself parsed: same hosts, ports and database. */
  @Test
  void hostsPortsAndDatabaseAreTheDriversOwn() {
    int compared = 0;
    for (String[] a : AUTHORITIES) {
      String url = "jdbc:mysql://" + a[0] + "/bank?password=S3cret8";
      ConnectionUrl parsed;
      try {
        parsed = ConnectionUrl.getConnectionUrlInstance(url, new Properties());
      } catch (RuntimeException rejectedByTheDriver) {
        continue; // e.g. user info inside a [ ] list: no connection, nothing to compare
      }
      if (!parsed.getHostsList().stream()
          .allMatch(h -> JdbcUrls.isHostName(h.getHost()) || JdbcUrls.isIpv6(h.getHost()))) {
        continue; // the driver misread it (user info inside a list: host "h3]"); no connection
      }
      compared++;
      List<String> driver = new ArrayList<>();
      for (HostInfo h : parsed.getHostsList()) {
        String host = h.getHost().contains(":") ? "[" + h.getHost() + "]" : h.getHost();
        driver.add(host + ":" + h.getPort());
      }
      // The driver fills in its default port (3306) where the URL gives none.
      String described = JdbcUrls.describe(url);
      String hosts = described.substring("jdbc:mysql://".length(), described.lastIndexOf('/'));
      List<String> ours = new ArrayList<>();
      for (String h : hosts.isEmpty() ? new String[] {"localhost"} : hosts.split(",")) {
        ours.add(h.matches(".*:\\d+$") && !h.endsWith("]") ? h : h + ":3306");
      }
      assertThat(ours).as(url).isEqualTo(driver);
      assertThat(described).as(url).endsWith("/" + parsed.getDatabase());
    }
    assertThat(compared).as("forms compared").isGreaterThanOrEqualTo(17);
  }

  @Test
  void anythingThatIsNotPlainlyAHostPortOrDatabaseIsLeftOut() {
    // A secret in a place the grammar does not allow it still never gets through.
    assertThat(JdbcUrls.describe("jdbc:mysql://db:4000/bank;password=S3cret")).isEqualTo("jdbc:mysql://db:4000/");
    assertThat(JdbcUrls.describe("jdbc:mysql://address=(host=db)(password=ab/cd)/bank"))
        .isEqualTo("jdbc:mysql://db/");
    assertThat(JdbcUrls.describe("jdbc:mysql://a:p/w@h/bank")).doesNotContain("w@h").doesNotContain("p/w");
    assertThat(JdbcUrls.describe("jdbc:mysql://h o s t:S3cret/bank")).isEqualTo("jdbc:mysql:///bank");
    assertThat(JdbcUrls.describe("jdbc:mysql://db:S3cret/bank")).isEqualTo("jdbc:mysql://db/bank");
    assertThat(JdbcUrls.describe("jdbc:postgresql://u:S3cret@db/bank")).isNull();
    assertThat(JdbcUrls.describe(null)).isNull();
    assertThat(JdbcUrls.describe("jdbc:mysql:")).isEqualTo("jdbc:mysql://");
    assertThat(JdbcUrls.describe("JDBC:MYSQL://db/bank")).isEqualTo("jdbc:mysql://db/bank");
  }
}
