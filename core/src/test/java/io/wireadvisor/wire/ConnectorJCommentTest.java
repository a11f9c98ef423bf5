package io.wireadvisor.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ConnectorJCommentTest {
  /**
   * {@code Constants.CJ_FULL_NAME} and {@code CJ_REVISION} of the releases, read from their
   * {@code sources} jars on Maven Central (9.6.0 and 9.7.0: {@code javap -constants} of the jar).
   */
  private static final Map<String, String> RELEASES = new TreeMap<>(Map.ofEntries(
      Map.entry("mysql-connector-java-8.0.20", "afc0a13cd3c5a0bf57eaa809ee0ee6df1fd5ac9b"),
      Map.entry("mysql-connector-java-8.0.30", "1de2fe873fe26189564c030a343885011412976a"),
      Map.entry("mysql-connector-j-8.0.33", "7d6b0800528b6b25c68b52dc10d6c1c8429c100c"),
      Map.entry("mysql-connector-j-8.2.0", "06a1f724497fd81c6a659131fda822c9e5085b6c"),
      Map.entry("mysql-connector-j-8.4.0", "1c3f5c149e0bfe31c7fbeb24e2d260cd890972c4"),
      Map.entry("mysql-connector-j-9.0.0", "e0e8e3461e5257ba4aa19e6b3614a2685b298947"),
      Map.entry("mysql-connector-j-9.3.0", "20ef8ee9eb4294a03858acccea0ddad3525f1ff9"),
      Map.entry("mysql-connector-j-9.5.0", "a7b3c94f50efbddb9f0dd69b3e0d1aaa25305cd6"),
      Map.entry("mysql-connector-j-9.7.0", "0aade1f13bcc98faf7dda5c02e782481eb291f62")));

  /**
   * The connect-time query as {@code NativeSession.loadServerVariables} builds it (8.0.33 and
   * 9.5.0 alike): {@code "/* " + getDriverVersion() + " *&#47;"}, then {@code "SELECT"}, then the
   * variables, the first one after two spaces.
   */
  private static String connectQuery(String fullName, String revision) {
    return "/* " + fullName + " (Revision: " + revision + ")" + " */"
        + "SELECT  @@session.auto_increment_increment AS auto_increment_increment"
        + ", @@character_set_client AS character_set_client"
        + ", @@character_set_connection AS character_set_connection";
  }

  @Test
  void everyReleaseIsNamedByItsConnectTimeQuery() {
    for (Map.Entry<String, String> r : RELEASES.entrySet()) {
      String expected = r.getKey().substring(r.getKey().lastIndexOf('-') + 1);
      ConnectorJComment c = ConnectorJComment.of(connectQuery(r.getKey(), r.getValue()));
      assertThat(c).as(r.getKey()).isNotNull();
      assertThat(c.version()).as(r.getKey()).isEqualTo(expected);
      assertThat(c.release()).as(r.getKey()).isEqualTo(expected);
    }
  }

  @Test
  void aSuffixIsKeptInTheVersionAndLeftOutOfTheRelease() {
    ConnectorJComment c = ConnectorJComment.of(connectQuery("mysql-connector-j-9.1.0-SNAPSHOT", "x"));
    assertThat(c.version()).isEqualTo("9.1.0-SNAPSHOT");
    assertThat(c.release()).isEqualTo("9.1.0");
    String twenty = "-" + "a".repeat(19);
    assertThat(ConnectorJComment.of(connectQuery("mysql-connector-j-9.1.0" + twenty, "x")).version())
        .isEqualTo("9.1.0" + twenty);
    assertThat(ConnectorJComment.of(connectQuery("mysql-connector-j-9.1.0" + twenty + "b", "x"))).isNull();
    assertThat(ConnectorJComment.of(connectQuery("mysql-connector-j-9.1.0 x", "x"))).isNull();
  }

  @Test
  void anythingElseNamesNobody() {
    assertThat(ConnectorJComment.of(null)).isNull();
    assertThat(ConnectorJComment.of("SELECT @@session.auto_increment_increment")).isNull();
    // paranoid=true leaves the comment out; a hand-written one without the revision is not it.
    assertThat(ConnectorJComment.of("/* mysql-connector-j-9.5.0 */SELECT 1")).isNull();
    assertThat(ConnectorJComment.of("/* mysql-connector-j-9.5.0")).isNull();
    assertThat(ConnectorJComment.of(" /* mysql-connector-j-9.5.0 (Revision: x) */SELECT 1")).isNull();
    assertThat(ConnectorJComment.of("/* mysql-connector-j-9.5 (Revision: x) */SELECT 1")).isNull();
    assertThat(ConnectorJComment.of("/* mariadb-java-client-3.5.1 (Revision: x) */SELECT 1")).isNull();
  }

  @Test
  void onlyTheFirstCharactersAreLookedAt() {
    String digits = "9".repeat(ConnectorJComment.MAX_CHARS);
    assertThat(ConnectorJComment.of("/* mysql-connector-j-" + digits + ".5.0 (Revision: x) */")).isNull();
    String justFits = "/* mysql-connector-j-" + "9".repeat(ConnectorJComment.MAX_CHARS - 40) + ".5.0 (Revision: ";
    assertThat(justFits.length()).isLessThanOrEqualTo(ConnectorJComment.MAX_CHARS);
    assertThat(ConnectorJComment.of(justFits + "x) */SELECT 1")).isNotNull();
    String tooLong = "/* mysql-connector-j-" + "9".repeat(ConnectorJComment.MAX_CHARS - 30) + ".5.0 (Revision: ";
    assertThat(tooLong.length()).isGreaterThan(ConnectorJComment.MAX_CHARS);
    assertThat(ConnectorJComment.of(tooLong + "x) */SELECT 1")).isNull();
  }
}
