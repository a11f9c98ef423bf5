package io.wireadvisor.proxy;

import io.wireadvisor.advisor.Redaction;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.ConnectorJComment;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The client a HandshakeResponse41 names in its connection attributes ({@code
 * CLIENT_CONNECT_ATTRS}): {@code _client_name}, {@code _client_version}, {@code program_name}…
 * Every common driver sends some (measured: the MariaDB mysql CLI and sysbench send {@code
 * _client_name=libmariadb}, the CLI also {@code program_name=mysql}; PyMySQL {@code pymysql};
 * Connector/J {@code MySQL Connector/J}; go-sql-driver ≥ 1.8 {@code Go-MySQL-Driver}; mysql2
 * {@code Node-MySQL-2}; PHP's mysqlnd {@code mysqlnd}).
 *
 * <p>Bounded: at most {@link #MAX_ATTRIBUTE_BYTES} bytes of attributes are read, only the names in
 * {@link #KEPT} are kept, each value cut to {@link #MAX_VALUE_CHARS} characters, stripped of
 * control characters and passed through the report's masking ({@link Redaction#text}). Parsing
 * never throws: a malformed or oversized attribute block ends the parse with the pairs read
 * before it, and the login goes on untouched.
 */
final class ClientAttributes {
  static final int CLIENT_CONNECT_ATTRS = 1 << 20;

  /**
   * Attribute bytes read at most (MySQL accepts up to 64 KiB; the drivers measured send all of
   * theirs in under 200 bytes, so a kept name past this bound is not read).
   */
  static final int MAX_ATTRIBUTE_BYTES = 4096;

  /** Characters kept of a value. */
  static final int MAX_VALUE_CHARS = 64;

  /** The attribute names kept; any other (pids, host names, user-defined ones) is skipped. */
  static final List<String> KEPT =
      List.of(
          "_client_name", "_client_version", "program_name", "_runtime_version",
          "_runtime_vendor", "_os");

  private static final int CLIENT_SECURE_CONNECTION = 1 << 15;
  private static final int CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21;

  private ClientAttributes() {}

  /**
   * The kept attributes of a HandshakeResponse41 payload ({@code head}, {@code length} bytes,
   * client capabilities {@code caps}), sorted by name; empty when the client sent none.
   */
  static Map<String, String> parse(byte[] head, int length, int caps) {
    try {
      return read(head, length, caps);
    } catch (RuntimeException e) {
      return Collections.emptyMap(); // never the login's problem; the bounds above make it moot
    }
  }

  private static Map<String, String> read(byte[] head, int length, int caps) {
    if ((caps & CLIENT_CONNECT_ATTRS) == 0 || head == null) {
      return Collections.emptyMap();
    }
    int limit = Math.min(length, head.length);
    int p = skipNul(head, 32, limit); // user name
    if (p < 0 || p >= limit) {
      return Collections.emptyMap();
    }
    if ((caps & CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA) != 0) {
      long n = Bytes.lenenc(head, p, limit);
      if (n < 0 || n > limit) {
        return Collections.emptyMap();
      }
      p += Bytes.lenencSize(head[p] & 0xff) + (int) n;
    } else if ((caps & CLIENT_SECURE_CONNECTION) != 0) {
      p += 1 + (head[p] & 0xff);
    } else {
      p = skipNul(head, p, limit);
    }
    if ((caps & Capabilities.CLIENT_CONNECT_WITH_DB) != 0) {
      p = skipNul(head, p, limit);
    }
    if ((caps & Capabilities.CLIENT_PLUGIN_AUTH) != 0) {
      p = skipNul(head, p, limit);
    }
    if (p < 0 || p >= limit) {
      return Collections.emptyMap();
    }
    long total = Bytes.lenenc(head, p, limit);
    if (total <= 0) {
      return Collections.emptyMap();
    }
    p += Bytes.lenencSize(head[p] & 0xff);
    // The block as announced, cut at the packet's end and at the read bound.
    int end = (int) Math.min(Math.min(p + total, limit), (long) p + MAX_ATTRIBUTE_BYTES);
    Map<String, String> kept = new TreeMap<>();
    while (p < end) {
      long keyLength = Bytes.lenenc(head, p, end);
      if (keyLength < 0) {
        break;
      }
      int keyAt = p + Bytes.lenencSize(head[p] & 0xff);
      if (keyAt + keyLength > end) {
        break;
      }
      int valueLengthAt = keyAt + (int) keyLength;
      long valueLength = Bytes.lenenc(head, valueLengthAt, end);
      if (valueLength < 0) {
        break;
      }
      int valueAt = valueLengthAt + Bytes.lenencSize(head[valueLengthAt] & 0xff);
      if (valueAt + valueLength > end) {
        break;
      }
      String key = new String(head, keyAt, (int) keyLength, StandardCharsets.UTF_8);
      if (KEPT.contains(key) && !kept.containsKey(key)) {
        String value = clean(new String(head, valueAt, (int) valueLength, StandardCharsets.UTF_8));
        if (!value.isEmpty()) {
          kept.put(key, value);
        }
      }
      p = valueAt + (int) valueLength;
    }
    return kept;
  }

  /** Bytes of a first query a caller decodes for {@link #fromFirstQuery} (all it looks at). */
  static final int COMMENT_CHARS = ConnectorJComment.MAX_CHARS;

  /**
   * The attributes a client that sent none names in its first query, or null: Connector/J with
   * {@code connectionAttributes=none} (as {@code useConfigs=maxPerformance} sets) by its
   * connect-time comment ({@link ConnectorJComment}: {@code _client_name} {@code MySQL
   * Connector/J}, {@code _client_version} its version, cleaned as every attribute is).
   */
  static Map<String, String> fromFirstQuery(String sql) {
    ConnectorJComment comment = ConnectorJComment.of(sql);
    if (comment == null) {
      return null;
    }
    Map<String, String> a = new TreeMap<>();
    a.put("_client_name", "MySQL Connector/J");
    a.put("_client_version", clean(comment.version()));
    return a;
  }

  /** Control characters out, at most {@link #MAX_VALUE_CHARS} characters, secrets masked. */
  static String clean(String value) {
    StringBuilder sb = new StringBuilder(Math.min(value.length(), MAX_VALUE_CHARS));
    for (int i = 0; i < value.length() && sb.length() < MAX_VALUE_CHARS; i++) {
      char c = value.charAt(i);
      if (!Character.isISOControl(c) && Character.getType(c) != Character.FORMAT
          && !Character.isSurrogate(c)) {
        sb.append(c);
      }
    }
    return Redaction.text(sb.toString().trim(), null);
  }

  /** The index after the NUL ending the string at {@code p}, or -1 when none is within limit. */
  private static int skipNul(byte[] head, int p, int limit) {
    if (p < 0) {
      return -1;
    }
    while (p < limit && head[p] != 0) {
      p++;
    }
    return p < limit ? p + 1 : -1;
  }
}
