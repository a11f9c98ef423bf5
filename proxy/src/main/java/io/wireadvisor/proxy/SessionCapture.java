package io.wireadvisor.proxy;

import io.wireadvisor.capture.BinaryValues;
import io.wireadvisor.capture.CaptureEvent;
import io.wireadvisor.capture.CaptureValue;
import io.wireadvisor.profile.CommandType;
import io.wireadvisor.sql.Parameterizer;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.ExecutePacket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * One connection's part in a capture: turns its commands into {@link CaptureEvent}s while a
 * capture runs, and keeps (while capture is enabled at all) the text and parameter types of each
 * statement it prepared, so that a capture started later can still replay the executions of
 * statements prepared before it (a pool prepares once and executes for hours). The texts are
 * bounded in bytes per connection and over all connections, like the statement ids; a statement
 * past the bound is captured by id only and replay reports it as unknown. Used by the
 * connection's event-loop thread only.
 */
final class SessionCapture {
  /** What is kept of one prepared statement. */
  private static final class Statement {
    final String sql;
    final int params;
    final long cost;
    int[] types;
    boolean[] longData;

    Statement(String sql, int params, long cost) {
      this.sql = sql;
      this.params = params;
      this.cost = cost;
    }
  }

  /** Accounted bytes of one kept statement beyond its text (map node, key, object, arrays). */
  static final long STATEMENT_OVERHEAD_BYTES = 160;

  /** Reads past values without keeping them. */
  private static final ExecutePacket.Sink IGNORE =
      new ExecutePacket.Sink() {
        @Override
        public void nullValue(int index) {}

        @Override
        public void longData(int index, int type) {}

        @Override
        public void value(int index, int type, byte[] b, int off, int len) {}
      };

  private final ProxyCapture capture;
  private final HashMap<Integer, Statement> statements = new HashMap<>();
  private long bytes;
  private ProxyCapture.Active numberedIn;
  private long number;
  private boolean quit;

  SessionCapture(ProxyCapture capture) {
    this.capture = capture;
  }

  /**
   * A command left the client: its event, or null when no capture runs (or the command is not
   * one a capture holds). Completed by {@link #complete}.
   *
   * @param sql the statement text of a COM_QUERY or COM_STMT_PREPARE, null when not whole
   */
  CaptureEvent.Builder begin(
      CommandType type, byte[] head, int headLength, int length, String sql, long startNanos,
      boolean queryAttributes) {
    if (type == CommandType.STMT_SEND_LONG_DATA && headLength >= 7) {
      Statement s = statements.get(Bytes.int32(head, 1));
      int index = Bytes.uint16(head, 5);
      if (s != null && index < s.params) {
        if (s.longData == null) {
          s.longData = new boolean[s.params];
        }
        s.longData[index] = true;
      }
    }
    if (type == CommandType.STMT_CLOSE && headLength >= 5) {
      forget(Bytes.int32(head, 1));
    }
    ProxyCapture.Active a = capture.active();
    if (a == null) {
      if (type == CommandType.STMT_EXECUTE && headLength >= 5 && headLength == length) {
        // Connector/J sends parameter types only when they change: follow them between captures.
        Statement s = statements.get(ExecutePacket.statementId(head));
        if (s != null) {
          int[] types = ExecutePacket.read(head, headLength, s.params, s.types, s.longData, queryAttributes, IGNORE);
          s.longData = null;
          if (types != null) {
            s.types = types;
          }
        }
      }
      return null;
    }
    long connection = numberIn(a, startNanos);
    long micros = a.micros(startNanos);
    switch (type) {
      case QUERY:
        {
          CaptureEvent.Builder b = CaptureEvent.builder(connection, micros, CaptureEvent.Kind.QUERY);
          if (sql != null) {
            Parameterizer.Parameterized p = Parameterizer.parameterize(sql);
            b.sql(p.template());
            for (Parameterizer.Literal l : p.values()) {
              b.value(CaptureValue.of(l.isNumber() ? CaptureValue.Type.NUMBER : CaptureValue.Type.STRING, l.value()));
            }
          }
          return b;
        }
      case STMT_PREPARE:
        return CaptureEvent.builder(connection, micros, CaptureEvent.Kind.PREPARE).sql(sql);
      case STMT_EXECUTE:
        {
          if (headLength < 5) {
            return null;
          }
          int id = ExecutePacket.statementId(head);
          CaptureEvent.Builder b =
              CaptureEvent.builder(connection, micros, CaptureEvent.Kind.EXECUTE).statementId(id);
          Statement s = statements.get(id);
          if (s != null && headLength == length) {
            BinaryValues values = new BinaryValues();
            int[] types =
                ExecutePacket.read(head, headLength, s.params, s.types, s.longData, queryAttributes, values);
            s.longData = null;
            if (types != null) {
              s.types = types;
              b.values(values.values());
            }
          }
          return b;
        }
      case STMT_RESET:
        return headLength < 5 ? null
            : CaptureEvent.builder(connection, micros, CaptureEvent.Kind.RESET).statementId(Bytes.int32(head, 1));
      case STMT_CLOSE:
        if (headLength >= 5) {
          // No reply: written now.
          a.write(CaptureEvent.builder(connection, micros, CaptureEvent.Kind.CLOSE)
              .statementId(Bytes.int32(head, 1)).build());
        }
        return null;
      case INIT_DB:
        return CaptureEvent.builder(connection, micros, CaptureEvent.Kind.INIT_DB)
            .sql(new String(head, 1, headLength - 1, StandardCharsets.UTF_8));
      case QUIT:
        quit = true;
        a.write(CaptureEvent.builder(connection, micros, CaptureEvent.Kind.QUIT).build());
        return null;
      default:
        return null;
    }
  }

  /**
   * The server answered PREPARE_OK: the connection holds statement {@code id} for {@code sql}
   * with {@code params} parameters (kept within the byte bounds).
   */
  void prepared(CaptureEvent.Builder event, String sql, int id, int params) {
    if (event != null) {
      event.statementId(id);
    }
    forget(id);
    if (sql == null) {
      return;
    }
    long cost = STATEMENT_OVERHEAD_BYTES + 2L * sql.length() + 8L * params;
    if (bytes + cost <= capture.textBytesPerConnection()
        && capture.textBudget.reserve(cost, capture.textBytesTotal())) {
      statements.put(id, new Statement(sql, params, cost));
      bytes += cost;
    }
  }

  /** The command's reply ended: writes its event. */
  void complete(CaptureEvent.Builder event, int errorCode, long latencyNanos) {
    ProxyCapture.Active a = capture.active();
    if (event == null || a == null) {
      return;
    }
    if (errorCode >= 0) {
      event.error(errorCode);
    }
    a.write(event.latencyMicros(latencyNanos / 1_000).build());
  }

  /** The server dropped every prepared statement (COM_RESET_CONNECTION, COM_CHANGE_USER). */
  void forgetStatements() {
    capture.textBudget.release(bytes);
    bytes = 0;
    statements.clear();
  }

  /** The connection closed: a capture that saw it gets its end; the texts' bytes are given back. */
  void close() {
    ProxyCapture.Active a = capture.active();
    if (a != null && a == numberedIn && !quit) {
      a.write(CaptureEvent.builder(number, a.micros(System.nanoTime()), CaptureEvent.Kind.QUIT).build());
    }
    forgetStatements();
  }

  /** Accounted bytes this connection's kept texts hold. */
  long bytes() {
    return bytes;
  }

  private void forget(int id) {
    Statement s = statements.remove(id);
    if (s != null) {
      bytes -= s.cost;
      capture.textBudget.release(s.cost);
    }
  }

  /** This connection's number in {@code a}, announced by a {@code connect} event the first time. */
  private long numberIn(ProxyCapture.Active a, long nanos) {
    if (numberedIn != a) {
      numberedIn = a;
      number = a.connections.incrementAndGet();
      quit = false;
      a.write(CaptureEvent.builder(number, a.micros(nanos), CaptureEvent.Kind.CONNECT).build());
      // Statements prepared before the capture: replayable from their kept texts.
      List<Integer> ids = new ArrayList<>(statements.keySet());
      java.util.Collections.sort(ids);
      for (int id : ids) {
        Statement s = statements.get(id);
        a.write(CaptureEvent.builder(number, a.micros(nanos), CaptureEvent.Kind.PREPARE)
            .statementId(id).sql(s.sql).build());
      }
    }
    return number;
  }
}
