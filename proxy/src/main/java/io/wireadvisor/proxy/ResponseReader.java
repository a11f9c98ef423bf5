package io.wireadvisor.proxy;

import io.wireadvisor.profile.CommandType;
import io.wireadvisor.proxy.SessionTracker.Phase;
import io.wireadvisor.wire.Bytes;
import io.wireadvisor.wire.Replies;

/**
 * The server's side of one proxied connection: the {@link PacketScanner.Handler} of the bytes the
 * server sends. It hands the greeting and the login's auth packets to the {@link Handshake}, and
 * in the command phase follows the reply to the oldest waiting command (TiProxy's {@code
 * cmd_processor_query.go}, apart from its authenticator): OK / ERR / EOF, text and binary result
 * sets with or without EOF packets, cursors, multiple results ({@code SERVER_MORE_RESULTS_EXISTS}),
 * PREPARE_OK with its parameter and column definitions, COM_FIELD_LIST, LOAD DATA LOCAL INFILE's
 * request and COM_CHANGE_USER's auth exchange.
 *
 * <pre>
 *  RESULT --OK/ERR--> end (more results: RESULT again)
 *    |--0xFB: LOCAL INFILE (the client's file, then RESULT's OK/ERR)
 *    +--column count--> COLUMN_DEFS --> COLUMNS_EOF (no deprecate-EOF; a cursor ends here)
 *                                  \--> ROWS --EOF/OK--> end (more results: RESULT again)
 *  PREPARE --PREPARE_OK--> PREPARE_PARAMS [EOF] --> PREPARE_COLUMNS [EOF] --> end
 * </pre>
 *
 * <p>It sees 32 bytes of each server packet, never holds one (the handshake's are held by the
 * scanner), and tells what it reads to {@link Commands}, which matches it to the command and
 * records it. Not thread-safe: the connection's event loop calls it.
 */
final class ResponseReader implements PacketScanner.Handler {
  /** Bytes of a server packet read: enough for an OK's status, an ERR's code and SQLSTATE. */
  private static final int SERVER_CAPTURE = 32;

  /** The commands a reply answers, and what records them ({@link SessionTracker}). */
  interface Commands {
    Phase phase();

    /** A command waits for (the rest of) its reply. */
    boolean waiting();

    /**
     * A packet of the oldest waiting command's reply ({@code first} its first byte, -1 if empty):
     * the reply started; the first ERR's code and SQLSTATE are kept.
     */
    void replyPacket(int first, byte[] head, int headLength);

    /** A result set began (its column count read). */
    void resultSet();

    /** A row of the current result set. */
    void row();

    /** The current result set's rows ended; {@code cursor}: a cursor holds them instead. */
    void rowsEnded(boolean cursor);

    /** The OK or EOF ending a result carries these status flags (-1 when it is too short). */
    void resultEnded(int status);

    /** PREPARE_OK named the statement's id and its parameter count. */
    void prepared(int id, int params);

    /** The server asked for a LOAD DATA LOCAL file: the client's next packet has this id. */
    void localInfile(int clientSeq);

    /** A COM_CHANGE_USER's exchange ended: OK (a new session) or ERR. */
    void changeUserEnded(boolean ok);

    /** The oldest waiting command's reply is complete. */
    void complete(boolean error);

    /** The reply cannot be followed: it ends, and the connection is no longer classified. */
    void unparseable();
  }

  private enum Expect {
    SIMPLE,
    ANY_ONE_PACKET,
    RESULT,
    COLUMN_DEFS,
    COLUMNS_EOF,
    ROWS,
    PREPARE,
    PREPARE_PARAMS,
    PREPARE_PARAMS_EOF,
    PREPARE_COLUMNS,
    PREPARE_COLUMNS_EOF,
    FIELD_LIST,
    AUTH
  }

  private final Handshake handshake;
  private final Commands commands;

  // For the oldest waiting command.
  private Expect expect;
  private long remainingDefs;
  private int preparedColumns;
  private boolean preparedMetadata;
  private int serverNextSeq;

  ResponseReader(Handshake handshake, Commands commands) {
    this.handshake = handshake;
    this.commands = commands;
  }

  /** The sequence id the server's next packet carries. */
  int nextSeq() {
    return serverNextSeq;
  }

  /** The oldest waiting command is now {@code type}: its reply is read next. */
  void expectReplyTo(CommandType type) {
    switch (type) {
      case QUERY:
      case STMT_EXECUTE:
      case PROCESS_INFO:
      case UNKNOWN:
        expect = Expect.RESULT;
        break;
      case STMT_FETCH:
        expect = Expect.ROWS;
        break;
      case STMT_PREPARE:
        expect = Expect.PREPARE;
        break;
      case FIELD_LIST:
        expect = Expect.FIELD_LIST;
        break;
      case STATISTICS:
        expect = Expect.ANY_ONE_PACKET;
        break;
      case CHANGE_USER:
        expect = Expect.AUTH;
        break;
      default:
        expect = Expect.SIMPLE;
        break;
    }
  }

  @Override
  public boolean holdNextPacket() {
    return handshake.holdsServerPacket(commands.waiting() && expect == Expect.AUTH);
  }

  @Override
  public int begin(int length, int seq, boolean continuation) {
    return continuation ? 0 : SERVER_CAPTURE;
  }

  @Override
  public int packet(int length, int seq, boolean continuation, byte[] head, int headLength)
      throws ProtocolException {
    serverNextSeq = (seq + 1) & 0xff;
    if (continuation) {
      return PacketScanner.FORWARD;
    }
    switch (commands.phase()) {
      case GREETING:
        handshake.greeting(length, head);
        break;
      case AUTH:
        handshake.serverAuthPacket(length, head, headLength);
        break;
      case COMMAND:
        if (commands.waiting()) {
          response(length, head, headLength);
        }
        break;
      default:
        break;
    }
    return PacketScanner.FORWARD;
  }

  private void response(int length, byte[] head, int headLength) throws ProtocolException {
    int first = headLength > 0 ? head[0] & 0xff : -1;
    commands.replyPacket(first, head, headLength);
    boolean terminator = first == Packets.EOF && length < Packets.MAX_CHUNK;
    boolean deprecateEof = handshake.deprecateEof();
    switch (expect) {
      case ANY_ONE_PACKET:
        commands.complete(false);
        return;
      case SIMPLE:
        commands.complete(first == Packets.ERR);
        return;
      case AUTH:
        handshake.changeUserReply(length, head, headLength);
        if (first == Packets.OK || first == Packets.ERR) {
          commands.changeUserEnded(first == Packets.OK);
          commands.complete(first == Packets.ERR);
        }
        return;
      case RESULT:
        if (first == Packets.OK) {
          commands.resultEnded(Replies.okStatusOrUnknown(head, headLength));
          endOfResult(Replies.okStatus(head, headLength));
        } else if (first == Packets.ERR) {
          commands.complete(true);
        } else if (first == Packets.LOCAL_INFILE) {
          commands.localInfile(serverNextSeq);
        } else {
          long columns = Bytes.lenenc(head, 0, headLength);
          if (columns <= 0) {
            commands.unparseable();
            return;
          }
          boolean metadata = true;
          int at = Bytes.lenencSize(first);
          if (handshake.optionalMetadata() && at < headLength) {
            metadata = head[at] != 0;
          }
          remainingDefs = metadata ? columns : 0;
          commands.resultSet();
          expect = remainingDefs > 0 ? Expect.COLUMN_DEFS : afterColumnDefs();
        }
        return;
      case COLUMN_DEFS:
        if (first == Packets.ERR) {
          commands.complete(true);
        } else if (--remainingDefs == 0) {
          expect = afterColumnDefs();
        }
        return;
      case COLUMNS_EOF:
        if (first == Packets.ERR) {
          commands.complete(true);
        } else if ((Replies.eofStatus(head, headLength) & Capabilities.SERVER_STATUS_CURSOR_EXISTS) != 0) {
          // A cursor was opened: no rows now, COM_STMT_FETCH brings them (not counted).
          commands.rowsEnded(true);
          commands.resultEnded(Replies.eofStatusOrUnknown(head, headLength));
          endOfResult(Replies.eofStatus(head, headLength));
        } else {
          expect = Expect.ROWS;
        }
        return;
      case ROWS:
        if (terminator) {
          int status = deprecateEof ? Replies.okStatusOrUnknown(head, headLength)
              : Replies.eofStatusOrUnknown(head, headLength);
          // Without EOF packets a cursor's opening ends the column definitions here.
          commands.rowsEnded(status >= 0 && (status & Capabilities.SERVER_STATUS_CURSOR_EXISTS) != 0);
          commands.resultEnded(status);
          endOfResult(deprecateEof ? Replies.okStatus(head, headLength) : Replies.eofStatus(head, headLength));
        } else if (first == Packets.ERR) {
          commands.complete(true); // 0xFF cannot start a row: the statement failed mid-result
        } else {
          commands.row();
        }
        return;
      case PREPARE:
        if (first == Packets.OK && headLength >= Replies.PREPARE_OK_LENGTH) {
          int id = Replies.preparedId(head);
          preparedColumns = Replies.preparedColumns(head);
          int params = Replies.preparedParams(head);
          preparedMetadata =
              Replies.preparedMetadataFollows(head, headLength, handshake.optionalMetadata());
          commands.prepared(id, params);
          if (preparedMetadata && params > 0) {
            remainingDefs = params;
            expect = Expect.PREPARE_PARAMS;
          } else {
            startPreparedColumns();
          }
        } else if (first == Packets.ERR) {
          commands.complete(true);
        } else {
          commands.unparseable();
        }
        return;
      case PREPARE_PARAMS:
        if (--remainingDefs == 0) {
          if (deprecateEof) {
            startPreparedColumns();
          } else {
            expect = Expect.PREPARE_PARAMS_EOF;
          }
        }
        return;
      case PREPARE_PARAMS_EOF:
        startPreparedColumns();
        return;
      case PREPARE_COLUMNS:
        if (--remainingDefs == 0) {
          if (deprecateEof) {
            commands.complete(false);
          } else {
            expect = Expect.PREPARE_COLUMNS_EOF;
          }
        }
        return;
      case PREPARE_COLUMNS_EOF:
        commands.complete(false);
        return;
      case FIELD_LIST:
        if (first == Packets.ERR) {
          commands.complete(true);
        } else if (terminator) {
          commands.complete(false);
        }
        return;
      default:
        throw new IllegalStateException(String.valueOf(expect));
    }
  }

  private Expect afterColumnDefs() {
    return handshake.deprecateEof() ? Expect.ROWS : Expect.COLUMNS_EOF;
  }

  private void startPreparedColumns() {
    if (preparedMetadata && preparedColumns > 0) {
      remainingDefs = preparedColumns;
      expect = Expect.PREPARE_COLUMNS;
    } else {
      commands.complete(false);
    }
  }

  private void endOfResult(int status) {
    if ((status & Capabilities.SERVER_MORE_RESULTS_EXISTS) != 0) {
      expect = Expect.RESULT;
    } else {
      commands.complete(false);
    }
  }
}
