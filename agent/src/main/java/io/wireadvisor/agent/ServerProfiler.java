package io.wireadvisor.agent;

import io.wireadvisor.profile.ServerCpuProfile;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;

/**
 * The agent's {@code serverCpuProfile}: one daemon thread takes TiDB CPU profiles of the status port
 * ({@code /debug/pprof/profile?seconds=N}) back to back and adds each to the window it began and
 * ended in ({@link CpuWindow#addServerProfile}), so the profile's {@code cpu.serverProfile} says where
 * the server's CPU went (docs/profile.md). Nothing runs on the application's statement path. A
 * profile that cannot be taken (the port refuses, another profiler is running, the answer is not a
 * CPU profile) is skipped with one warning and retried after the same time; reads are bounded
 * ({@link ServerCpuProfile#MAX_COMPRESSED_BYTES}).
 */
final class ServerProfiler implements Runnable {
  private final String statusUrl;
  private final int seconds;
  private boolean warned;

  private ServerProfiler(String statusUrl, int seconds) {
    this.statusUrl = statusUrl;
    this.seconds = seconds;
  }

  /** Starts the thread when both options are set; warns when only the seconds are. */
  static void start(String statusUrl, int seconds) {
    if (seconds <= 0) {
      return;
    }
    if (statusUrl == null) {
      AgentLog.warn("serverCpuProfile needs serverStatusUrl (the TiDB status port to profile); no server CPU"
          + " profiles are taken");
      return;
    }
    Thread t = new Thread(new ServerProfiler(statusUrl, seconds), "wire-advisor-server-profiler");
    t.setDaemon(true);
    t.start();
  }

  @Override
  public void run() {
    while (!Thread.currentThread().isInterrupted()) {
      long generation = CpuWindow.generation();
      try {
        CpuWindow.addServerProfile(generation, take(statusUrl, seconds));
      } catch (IOException | RuntimeException e) {
        if (!warned) {
          warned = true;
          AgentLog.warn("no TiDB CPU profile from " + statusUrl + "/debug/pprof/profile (" + e.getMessage()
              + "); profiles have no cpu.serverProfile until one can be taken");
        }
        try {
          Thread.sleep(seconds * 1000L);
        } catch (InterruptedException ie) {
          return;
        }
      }
    }
  }

  /** One CPU profile of {@code seconds}, read and classified. */
  static ServerCpuProfile take(String statusUrl, int seconds) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(statusUrl + "/debug/pprof/profile?seconds=" + seconds)
        .openConnection();
    try {
      c.setConnectTimeout(2000);
      c.setReadTimeout((seconds + 10) * 1000);
      c.setInstanceFollowRedirects(false);
      int code = c.getResponseCode();
      if (code != 200) {
        throw new IOException("HTTP " + code);
      }
      try (InputStream in = c.getInputStream()) {
        return ServerCpuProfile.read(in);
      }
    } finally {
      c.disconnect();
    }
  }
}
