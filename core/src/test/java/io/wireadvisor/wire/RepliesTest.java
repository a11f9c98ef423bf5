package io.wireadvisor.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RepliesTest {
  private static byte[] bytes(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }

  @Test
  void okStatusSkipsLengthEncodedCountsOfEverySize() {
    // affected rows 0xFC-prefixed (2 bytes), last insert id 0xFD-prefixed (3 bytes), status 0x0048
    byte[] ok = bytes(0x00, 0xFC, 0x10, 0x27, 0xFD, 1, 2, 3, 0x48, 0x00, 0, 0);
    assertThat(Replies.okStatus(ok, ok.length))
        .isEqualTo(Replies.SERVER_STATUS_CURSOR_EXISTS | Replies.SERVER_MORE_RESULTS_EXISTS);
    assertThat(Replies.okStatus(ok, 9)).as("status not at hand").isZero();
    assertThat(Replies.okStatus(bytes(0x00, 0xFF, 0, 2, 0), 5)).as("not a length").isZero();
  }

  @Test
  void statusFlagsNotAtHandAreUnknownRatherThanZero() {
    // A 0 would say "escapes on": only flags actually read may decide the escaping mode.
    byte[] ok = bytes(0x00, 0xFC, 0x10, 0x27, 0xFD, 1, 2, 3, 0x02, 0x02, 0, 0);
    assertThat(Replies.okStatusOrUnknown(ok, ok.length)).isEqualTo(0x0202);
    for (int cut = 0; cut < 10; cut++) {
      assertThat(Replies.okStatusOrUnknown(ok, cut)).as("%d bytes", cut).isEqualTo(-1);
    }
    assertThat(Replies.eofStatusOrUnknown(bytes(0xFE, 0, 0, 0x02, 0x02), 5)).isEqualTo(0x0202);
    assertThat(Replies.eofStatusOrUnknown(bytes(0xFE, 0, 0, 0x02), 4)).isEqualTo(-1);
  }

  @Test
  void eofStatusAndErrFields() {
    assertThat(Replies.eofStatus(bytes(0xFE, 0, 0, 0x02, 0x00), 5)).isEqualTo(Replies.SERVER_STATUS_AUTOCOMMIT);
    assertThat(Replies.eofStatus(bytes(0xFE, 0, 0), 3)).isZero();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    err.write(0xFF);
    err.write(0x7A);
    err.write(0x04); // 1146
    byte[] rest = "#42S02Table 'bank.x' doesn't exist".getBytes(StandardCharsets.UTF_8);
    err.write(rest, 0, rest.length);
    byte[] e = err.toByteArray();
    assertThat(Replies.errCode(e, e.length)).isEqualTo(1146);
    assertThat(Replies.errSqlState(e, e.length)).isEqualTo("42S02");
    assertThat(Replies.errMessage(e, e.length)).isEqualTo("Table 'bank.x' doesn't exist");
    byte[] bare = bytes(0xFF, 0x15, 0x04, 'n', 'o');
    assertThat(Replies.errSqlState(bare, bare.length)).isEqualTo("HY000");
    assertThat(Replies.errMessage(bare, bare.length)).isEqualTo("no");
    assertThat(Replies.errCode(bytes(0x00, 0, 0), 3)).isEqualTo(-1);
    assertThat(Replies.errMessage(bytes(0x00), 1)).isNull();
  }

  @Test
  void prepareOk() {
    byte[] p = bytes(0x00, 0x07, 0, 0, 0, 3, 0, 2, 0, 0, 0, 0, 0);
    assertThat(Replies.isPrepareOk(p, p.length)).isTrue();
    assertThat(Replies.preparedId(p)).isEqualTo(7);
    assertThat(Replies.preparedColumns(p)).isEqualTo(3);
    assertThat(Replies.preparedParams(p)).isEqualTo(2);
    assertThat(Replies.preparedMetadataFollows(p, p.length, false)).isTrue();
    assertThat(Replies.preparedMetadataFollows(p, p.length, true)).as("metadata_follows = 0").isFalse();
    assertThat(Replies.preparedMetadataFollows(p, 12, true)).as("byte not sent").isTrue();
    assertThat(Replies.isPrepareOk(bytes(0xFF, 0x7A, 0x04, 0, 0), 5)).isFalse();
    assertThat(Replies.isPrepareOk(bytes(0x00, 1, 0), 3)).as("id not at hand").isFalse();
  }

  private static byte[] greeting(String version, int caps, boolean mariaDbExtended) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(10);
    byte[] v = version.getBytes(StandardCharsets.UTF_8);
    b.write(v, 0, v.length);
    b.write(0);
    b.write(new byte[] {0x2A, 0, 0, 0}, 0, 4); // connection id 42
    b.write(new byte[8], 0, 8);
    b.write(0);
    b.write(caps & 0xff);
    b.write((caps >>> 8) & 0xff);
    b.write(33); // charset
    b.write(new byte[] {2, 0}, 0, 2); // status
    b.write((caps >>> 16) & 0xff);
    b.write((caps >>> 24) & 0xff);
    b.write(21); // auth data length
    b.write(new byte[6], 0, 6);
    b.write(new byte[] {mariaDbExtended ? (byte) 0x1F : 0, 0, 0, 0}, 0, 4);
    b.write(new byte[13], 0, 13);
    return b.toByteArray();
  }

  @Test
  void greetingFieldsAndAnInPlaceCapabilityRewrite() {
    int caps = 0x00088201 | 1 << 11 | 1 << 19; // LONG_PASSWORD, PROTOCOL_41, ..., with CLIENT_SSL
    byte[] g = greeting("8.0.11-TiDB-v8.5.3", caps, false);
    Greeting parsed = Greeting.parse(g, g.length);
    assertThat(parsed.version()).isEqualTo("8.0.11-TiDB-v8.5.3");
    assertThat(parsed.connectionId()).isEqualTo(42);
    assertThat(parsed.capabilities()).isEqualTo(caps);
    assertThat(parsed.hasMariaDbExtendedCapabilities()).isFalse();
    parsed.rewriteCapabilities(g, caps & ~(1 << 11), Greeting.MARIADB_CLIENT_CACHE_METADATA);
    assertThat(Greeting.parse(g, g.length).capabilities()).isEqualTo(caps & ~(1 << 11));

    int mariaCaps = caps & ~1; // MariaDB clears CLIENT_LONG_PASSWORD to say "extended flags follow"
    byte[] m = greeting("5.5.5-11.4.5-MariaDB", mariaCaps, true);
    Greeting maria = Greeting.parse(m, m.length);
    assertThat(maria.hasMariaDbExtendedCapabilities()).isTrue();
    maria.rewriteCapabilities(m, mariaCaps, Greeting.MARIADB_CLIENT_CACHE_METADATA);
    int extendedAt = m.length - 13 - 4;
    assertThat(m[extendedAt] & 0xff).isEqualTo(0x1F & ~Greeting.MARIADB_CLIENT_CACHE_METADATA);

    assertThat(Greeting.parse(new byte[] {9, 'x', 0}, 3)).as("protocol 9").isNull();
    assertThat(Greeting.parse(g, 20)).as("cut before the capabilities").isNull();
    assertThat(Greeting.parse(new byte[0], 0)).isNull();
  }
}
