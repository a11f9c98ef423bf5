package io.wireadvisor.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class QueryAttributesTest {
  private static final byte[] SQL = "SELECT 1".getBytes(StandardCharsets.UTF_8);

  @Test
  void withoutQueryAttributesSqlStartsAtByteOne() {
    byte[] p = packet(new byte[0]);
    assertThat(QueryAttributes.sqlOffset(p, p.length, false)).isEqualTo(1);
  }

  @Test
  void noAttributesIsTwoLenencZerosAndOne() {
    byte[] p = packet(new byte[] {0, 1});
    assertThat(sql(p)).isEqualTo("SELECT 1");
  }

  @Test
  void attributesOfEveryValueShapeAreSkipped() {
    ByteArrayOutputStream a = new ByteArrayOutputStream();
    int n = 5;
    a.write(n); // param_count
    a.write(1); // param_set_count
    a.write(0b00010000); // null bitmap: the fifth is NULL
    a.write(1); // new_params_bind_flag
    int[] types = {0x08, 0xfd, 0x0c, 0x01, 0xfe};
    String[] names = {"id", "traceparent", "at", "flag", "nothing"};
    for (int i = 0; i < n; i++) {
      a.write(types[i]);
      a.write(0);
      a.write(names[i].length());
      a.writeBytes(names[i].getBytes(StandardCharsets.UTF_8));
    }
    a.writeBytes(new byte[8]); // LONGLONG
    a.write(3);
    a.writeBytes("abc".getBytes(StandardCharsets.UTF_8)); // VAR_STRING, lenenc
    a.write(7);
    a.writeBytes(new byte[7]); // DATETIME, length-prefixed
    a.write(1); // TINY
    byte[] p = packet(a.toByteArray());
    assertThat(sql(p)).isEqualTo("SELECT 1");
  }

  @Test
  void longLenencStringValuesAreSkipped() {
    ByteArrayOutputStream a = new ByteArrayOutputStream();
    a.write(1);
    a.write(1);
    a.write(0);
    a.write(1);
    a.write(0xfc); // BLOB type
    a.write(0);
    a.write(1);
    a.write('k');
    a.write(0xfc); // lenenc: 2-byte length 300
    a.write(300 & 0xff);
    a.write(300 >> 8);
    a.writeBytes(new byte[300]);
    byte[] p = packet(a.toByteArray());
    assertThat(sql(p)).isEqualTo("SELECT 1");
  }

  @Test
  void truncatedOrMalformedAttributesGiveMinusOneNeverThrow() {
    byte[] full = packet(new byte[] {2, 1, 0, 1, 8, 0, 1, 'a', 8, 0, 1, 'b'});
    for (int len = 1; len < full.length - SQL.length; len++) {
      assertThat(QueryAttributes.sqlOffset(full, len, true)).isLessThanOrEqualTo(len);
    }
    byte[] noBindFlag = packet(new byte[] {1, 1, 0, 0});
    assertThat(QueryAttributes.sqlOffset(noBindFlag, noBindFlag.length, true)).isEqualTo(-1);
    byte[] undefinedLenenc = {3, (byte) 0xfb};
    assertThat(QueryAttributes.sqlOffset(undefinedLenenc, 2, true)).isEqualTo(-1);
  }

  private static String sql(byte[] p) {
    int off = QueryAttributes.sqlOffset(p, p.length, true);
    assertThat(off).isPositive();
    return new String(p, off, p.length - off, StandardCharsets.UTF_8);
  }

  private static byte[] packet(byte[] attributes) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(3);
    b.writeBytes(attributes);
    b.writeBytes(SQL);
    return b.toByteArray();
  }
}
