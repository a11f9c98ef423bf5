package io.wireadvisor.testkit;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.SQLException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.Transferable;
import org.testcontainers.tidb.TiDBContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * TiDB in a Docker container started by Testcontainers, with TLS offered (auto-tls, as a TiDB
 * deployment has it) so the upstream-TLS tests run on this path too.
 *
 * <p>Where the user's Testcontainers configuration allows reuse ({@code TESTCONTAINERS_REUSE_ENABLE=true}
 * or {@code testcontainers.reuse.enable=true} in {@code ~/.testcontainers.properties}), one container
 * serves every test JVM of the reactor, and later builds: it is left running, labelled
 * {@value #LABEL}, and its globals are recorded like a server the build was given, so that
 * {@code ServerLeftAsFoundIT} checks the build left it as found. Otherwise each JVM starts its own
 * and stops it at exit.
 */
final class TiDBContainerServer extends AbstractDatabaseServer {
  /** The label on every container the testkit starts: {@code docker rm -f $(docker ps -qf label=...)}. */
  static final String LABEL = "io.wireadvisor.testkit";

  private static final int SQL_PORT = 4000;
  private static final int STATUS_PORT = 10080;
  private static final String LOOPBACK = "127.0.0.1";
  private static final String CONFIG_PATH = "/wire-advisor/tidb.toml";
  // auto-tls: TiDB makes a certificate at start-up, as a real deployment offers TLS.
  private static final String CONFIG = "[security]\nauto-tls = true\n";

  private final TiDBContainer container;
  private final boolean shared;

  private TiDBContainerServer(TiDBContainer container, boolean shared) {
    super(
        "testcontainers",
        container.getHost(),
        container.getMappedPort(SQL_PORT),
        "root",
        "",
        "http://" + container.getHost() + ":" + container.getMappedPort(STATUS_PORT));
    this.container = container;
    this.shared = shared;
  }

  static TiDBContainerServer start() {
    boolean reuse = TestcontainersConfiguration.getInstance().environmentSupportsReuse();
    @SuppressWarnings("resource")
    TiDBContainer container =
        new TiDBContainer(DockerImageName.parse(TestVersions.TIDB_IMAGE).asCompatibleSubstituteFor("pingcap/tidb"))
            .withCopyToContainer(Transferable.of(CONFIG), CONFIG_PATH)
            .withCommand("-config", CONFIG_PATH)
            .withLabel(LABEL, "tidb")
            .withReuse(reuse);
    String host = DockerClientFactory.instance().dockerHostIpAddress();
    if (isLoopback(host)) {
      // Root has no password in this TiDB: publish it on loopback only, not on every interface (the
      // Docker default). Where the engine is reached over the network the ports must stay public.
      container.withCreateContainerCmdModifier(
          cmd -> cmd.getHostConfig().withPortBindings(
              new PortBinding(Ports.Binding.bindIp(LOOPBACK), ExposedPort.tcp(SQL_PORT)),
              new PortBinding(Ports.Binding.bindIp(LOOPBACK), ExposedPort.tcp(STATUS_PORT))));
    }
    container.start();
    TiDBContainerServer server = new TiDBContainerServer(container, reuse);
    try {
      server.probe();
    } catch (SQLException e) {
      if (!reuse) {
        container.stop();
      }
      throw new IllegalStateException("TiDB container " + TestVersions.TIDB_IMAGE + " started but refuses connections", e);
    }
    if (reuse) {
      // Outlives this JVM and serves the next: the build must leave it as it found it.
      ServerGlobals.recordOnce(server);
    }
    return server;
  }

  static boolean isLoopback(String host) {
    try {
      return host != null && InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  @Override
  String describe() {
    return super.describe() + " in container " + container.getContainerId().substring(0, 12) + " of " + TestVersions.TIDB_IMAGE
        + (shared ? " (reused: one container for every test JVM)" : "");
  }

  @Override
  public void close() {
    closeCounters();
    if (!shared) {
      container.stop();
    }
  }
}
