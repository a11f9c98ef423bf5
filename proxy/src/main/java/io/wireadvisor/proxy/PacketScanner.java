package io.wireadvisor.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.List;

/**
 * Finds packet boundaries in one direction of a MySQL connection while the bytes pass through
 * unchanged. Buffers are forwarded as they arrive (sliced, never copied), so a packet of any size
 * streams through and memory stays bounded: the scanner keeps only the head of each packet, as
 * many bytes as its {@link Handler} asks for.
 *
 * <p>A handler may instead ask to hold the next packet whole (the handshake packets, whose
 * capability flags the proxy rewrites in place); a held packet is re-emitted after {@link
 * Handler#packet} has seen it, with the same length and sequence id.
 *
 * <pre>
 *  in:  |hdr|payload......|hdr|pay|  |load|hdr|payload...|
 *        ^ begin()         ^ begin()       ^ begin()
 *                     packet() ^      packet() ^
 *  out: the same bytes, as retained slices of the input buffers
 * </pre>
 */
final class PacketScanner {
  /** Decides what to capture and reacts to each packet; called on the channel's event loop. */
  interface Handler {
    /** Called before the first header byte of a packet: hold that packet whole? */
    boolean holdNextPacket();

    /**
     * Called before the first header byte of a packet the handler does not hold: a length up to
     * which to hold it whole anyway (0: stream it). A longer packet streams; its header is
     * re-emitted unchanged. Lets a handler see a small packet whole before any byte of it moves.
     */
    default int holdIfAtMost() {
      return 0;
    }

    /**
     * The first payload byte of a packet that streams (not held): false stops the connection
     * before any payload byte of it is forwarded.
     */
    default void streaming(int firstPayloadByte) throws ProtocolException {}

    /**
     * A packet header was read. May reject it (bad sequence id) before any payload byte moves.
     *
     * @param continuation true when the previous chunk was exactly 0xFFFFFF bytes long, so this
     *     chunk continues the same logical packet
     * @return how many payload bytes to capture for {@link #packet}
     */
    int begin(int length, int seq, boolean continuation) throws ProtocolException;

    /**
     * The packet's last byte was read. {@code head} holds its first {@code headLength} payload
     * bytes (the whole payload for a held packet, which the handler may modify in place).
     *
     * @return {@link #FORWARD}, or for a held packet {@link #DROP_AND_STOP}: do not forward it and
     *     stop scanning right after it (the rest of the buffer belongs to another layer, e.g. TLS)
     */
    int packet(int length, int seq, boolean continuation, byte[] head, int headLength)
        throws ProtocolException;
  }

  static final int FORWARD = 0;
  static final int DROP_AND_STOP = 1;

  private static final int INITIAL_HEAD = 64;
  /** A head buffer grown past this for one large packet is dropped after it (bounded idle memory). */
  private static final int KEEP_HEAD = 16 * 1024;

  private final Handler handler;
  private final int maxHeld;

  private int headerPos;
  private int headerValue;
  private int length;
  private int seq;
  private int remaining;
  private boolean inBody;
  private boolean continuation;
  private boolean previousWasFull;
  private boolean holding;
  /** The packet being read is held only if its length is at most {@link #tentativeLimit}. */
  private boolean tentative;
  private int tentativeLimit;

  private byte[] head = new byte[INITIAL_HEAD];
  private int heldSeqShift;
  private boolean stopped;
  private int headLength;
  private int captureLimit;

  /**
   * @param maxHeld the largest packet that may be held whole; a longer one is malformed
   */
  PacketScanner(Handler handler, int maxHeld) {
    this.handler = handler;
    this.maxHeld = maxHeld;
  }

  /**
   * Held packets are re-emitted with their sequence id plus {@code shift}: after a TLS upgrade
   * the client counts one packet (the SSLRequest) that the server never saw.
   */
  void heldSeqShift(int shift) {
    this.heldSeqShift = shift;
  }

  /** Sequence id of the packet read last (or being read). */
  int currentSeq() {
    return seq;
  }

  /** True between packets, where another packet (e.g. the proxy's own ERR) may be inserted. */
  boolean atPacketBoundary() {
    return headerPos == 0 && !inBody;
  }

  /**
   * Scans {@code in} and adds the bytes to forward to {@code out} (retained slices or the held
   * packets). The caller still owns, and must release, {@code in}; on an exception it must
   * release whatever was added to {@code out}. When a held packet asked to stop, the bytes after
   * it are left readable in {@code in} (its reader index is moved past what was scanned).
   */
  void scan(ByteBuf in, List<ByteBuf> out) throws ProtocolException {
    final int start = in.readerIndex();
    final int end = in.writerIndex();
    int idx = start;
    int passStart = holding ? -1 : start;
    stopped = false;
    while (idx < end && !stopped) {
      if (!inBody) {
        if (headerPos == 0 && !holding) {
          int limit = 0;
          boolean hold = handler.holdNextPacket() || (limit = handler.holdIfAtMost()) > 0;
          if (hold) {
            if (passStart >= 0 && idx > passStart) {
              out.add(in.retainedSlice(passStart, idx - passStart));
            }
            passStart = -1;
            holding = true;
            tentative = limit > 0;
            tentativeLimit = limit;
          }
        }
        headerValue |= (in.getByte(idx++) & 0xff) << (8 * headerPos);
        if (++headerPos == Packets.HEADER_LENGTH) {
          int announced = headerValue & Packets.MAX_CHUNK;
          if (tentative && announced > Math.min(tentativeLimit, maxHeld)) {
            // Too long to hold: it streams after all, its header re-emitted as it came.
            ByteBuf header = Unpooled.buffer(Packets.HEADER_LENGTH);
            header.writeIntLE(headerValue);
            out.add(header);
            holding = false;
            passStart = idx;
          }
          tentative = false;
          startPacket();
          if (remaining == 0) {
            if (endPacket(out)) {
              passStart = idx;
            }
          }
        }
        continue;
      }
      if (!holding && remaining == length && length > 0 && !continuation) {
        handler.streaming(in.getByte(idx) & 0xff);
      }
      int n = Math.min(remaining, end - idx);
      if (headLength < captureLimit) {
        int c = Math.min(n, captureLimit - headLength);
        ensureHead(headLength + c);
        in.getBytes(idx, head, headLength, c);
        headLength += c;
      }
      idx += n;
      remaining -= n;
      if (remaining == 0 && endPacket(out)) {
        passStart = idx;
      }
    }
    if (passStart >= 0 && idx > passStart) {
      out.add(passStart == start && idx == end ? in.retain() : in.retainedSlice(passStart, idx - passStart));
    }
    if (stopped) {
      in.readerIndex(idx);
    }
  }

  private void startPacket() throws ProtocolException {
    length = headerValue & Packets.MAX_CHUNK;
    seq = headerValue >>> 24;
    headerPos = 0;
    headerValue = 0;
    continuation = previousWasFull;
    previousWasFull = length == Packets.MAX_CHUNK;
    remaining = length;
    inBody = true;
    headLength = 0;
    if (holding && length > maxHeld) {
      throw ProtocolException.malformed(
          "handshake packet of " + length + " bytes exceeds the proxy's limit of " + maxHeld);
    }
    int wanted = handler.begin(length, seq, continuation);
    captureLimit = holding ? length : Math.max(0, Math.min(length, wanted));
    // No allocation here: the header only announces a length; the head grows as bytes arrive,
    // so a peer that announces a large packet and stalls costs nothing until it sends.
  }

  /** Grows the head buffer to hold {@code needed} bytes (doubling, never past the capture). */
  private void ensureHead(int needed) {
    if (needed > head.length) {
      int size = Math.min(captureLimit, Math.max(needed, 2 * head.length));
      head = java.util.Arrays.copyOf(head, size);
    }
  }

  /** Bytes this scanner holds now (its head buffer): what a stalled peer costs. */
  int heldBytes() {
    return head.length;
  }

  /** Ends the current packet; true when a held packet was emitted (pass-through restarts). */
  private boolean endPacket(List<ByteBuf> out) throws ProtocolException {
    inBody = false;
    int action = handler.packet(length, seq, continuation, head, headLength);
    if (!holding) {
      if (head.length > KEEP_HEAD) {
        head = new byte[INITIAL_HEAD];
      }
      return false;
    }
    holding = false;
    if (action == DROP_AND_STOP) {
      stopped = true;
      previousWasFull = false;
      return true;
    }
    ByteBuf held = Unpooled.buffer(Packets.HEADER_LENGTH + length);
    held.writeMediumLE(length);
    held.writeByte(seq + heldSeqShift);
    held.writeBytes(head, 0, length);
    out.add(held);
    if (head.length > KEEP_HEAD) {
      head = new byte[INITIAL_HEAD]; // a large handshake packet must not pin its buffer
    }
    return true;
  }
}
