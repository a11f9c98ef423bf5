package io.wireadvisor.agent.internal;

import io.wireadvisor.profile.WireSession;
import java.lang.ref.WeakReference;

/**
 * What the agent knows about one physical connection (one {@code NativeProtocol}), held weakly so
 * a connection the application abandons without closing does not stay reachable because of us.
 * What is counted for it is its {@link WireSession}'s business (the rules both collectors share);
 * this keeps what only the agent sees: the driver's description of the connection. Used by one
 * thread at a time, like the connection itself.
 */
public final class ConnState extends WeakReference<Object> {
  /** Statement bytes all connections' sessions hold (bounded like the proxy's, see WireSession). */
  static final WireSession.Budget BUDGET = new WireSession.Budget();
  private static final WireSession.CauseSource CAUSES =
      new WireSession.CauseSource() {
        @Override
        public String current() {
          return Causes.current();
        }
      };

  // Volatile: an abort on another thread ends it (end()).
  private volatile WireSession session;
  /** This connection's part in captures; null until capture is enabled (see AgentCapture). */
  public io.wireadvisor.capture.CaptureSession capture;
  /** The record of the command going out now (the agent sees its request and reply together). */
  public final io.wireadvisor.command.CommandRecord command =
      new io.wireadvisor.command.CommandRecord();
  /**
   * Whether this connection counts in the hooks' tally of sessions waiting for a reply's further
   * results (see {@code Hooks.followingResult}); the connection's thread keeps it.
   */
  public boolean resultsFollow;
  /** How the hooks find this connection's text shapes (theirs to make and set). */
  public Object shapes;
  /**
   * Whether this connection's configuration is (or will be) recorded. A connection first seen
   * while it connects is described by the constructor advice; one first seen otherwise was open
   * before the agent was attached and is described from its protocol object.
   */
  public boolean described;
  /**
   * The connection's configuration as it stands now (isolation updated by
   * {@code setTransactionIsolation}); null until the connection is described. Written by the
   * connection's thread, read by the snapshot thread too.
   */
  public volatile ConnDescription description;
  /**
   * Whether {@link #description} as it stands is registered as a source. Cleared when the isolation
   * changes; set again by the connection's next business statement (the hot path's only check).
   */
  public volatile boolean registered;
  /** Whether a business statement registered a description of this connection (in any window). */
  public volatile boolean ranStatements;
  /**
   * Set when the driver closed the connection without COM_QUIT (abort, forced close after a
   * failure), possibly from another thread. The state stays in the table so that a command still
   * in flight on the closed connection does not bring it back as a new open one.
   */
  public volatile boolean closed;

  ConnState(Object protocol, boolean lateAttach) {
    super(protocol);
    this.described = !lateAttach || Causes.inConnect();
  }

  /**
   * This connection's recording session, counting in {@code current}; after a reset it starts
   * afresh there (its prepared statements stay known).
   */
  public WireSession sessionIn(Window current) {
    WireSession s = session;
    if (s == null) {
      s = new WireSession(current.recorder, BUDGET, CAUSES);
      session = s;
      return s;
    }
    s.bindTo(current.recorder);
    return s;
  }

  /** The connection ended (COM_QUIT sent, or found collected). Idempotent. */
  void end() {
    WireSession s = session;
    if (s != null) {
      s.end();
    }
  }

  /** Gives back what the session holds of {@link #BUDGET}; on the connection's thread, or when
   * the connection was found collected. */
  void release() {
    WireSession s = session;
    if (s != null) {
      s.release();
    }
    io.wireadvisor.capture.CaptureSession c = capture;
    if (c != null) {
      c.close();
    }
  }
}
