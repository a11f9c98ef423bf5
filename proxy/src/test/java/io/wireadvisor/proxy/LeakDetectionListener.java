package io.wireadvisor.proxy;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Installs {@link LeakRecorder} before any test class (and so any Netty buffer class) loads. */
public final class LeakDetectionListener implements LauncherSessionListener {
  @Override
  public void launcherSessionOpened(LauncherSession session) {
    LeakRecorder.install();
  }
}
