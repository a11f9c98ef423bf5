package io.wireadvisor.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SafeFilesTest {
  @TempDir Path dir;

  @Test
  void aNewFileIsReadableByItsOwnerOnly() throws Exception {
    Path target = dir.resolve("sub/report.txt");
    SafeFiles.write(target, out -> out.write("hello".getBytes(StandardCharsets.UTF_8)));
    assertThat(new String(Files.readAllBytes(target), StandardCharsets.UTF_8)).isEqualTo("hello");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-------");
    assertThat(leftovers()).isZero();
  }

  @Test
  void anExistingWorldReadableFileIsReplacedByAPrivateOne() throws Exception {
    Path target = dir.resolve("profile.json");
    Files.write(target, "old".getBytes(StandardCharsets.UTF_8));
    Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rw-rw-rw-"));
    SafeFiles.write(target, out -> out.write("new".getBytes(StandardCharsets.UTF_8)));
    assertThat(new String(Files.readAllBytes(target), StandardCharsets.UTF_8)).isEqualTo("new");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-------");
  }

  @Test
  void aSymbolicLinkAtTheTargetIsReplacedNeverFollowed() throws Exception {
    Path victim = dir.resolve("victim");
    Files.write(victim, "precious".getBytes(StandardCharsets.UTF_8));
    Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
    Path target = dir.resolve("report.txt");
    Files.createSymbolicLink(target, victim);
    SafeFiles.write(target, out -> out.write("report".getBytes(StandardCharsets.UTF_8)));

    assertThat(new String(Files.readAllBytes(victim), StandardCharsets.UTF_8)).isEqualTo("precious");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(victim))).isEqualTo("rw-r--r--");
    assertThat(Files.isSymbolicLink(target)).isFalse();
    assertThat(Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)).isTrue();
    assertThat(new String(Files.readAllBytes(target), StandardCharsets.UTF_8)).isEqualTo("report");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-------");
  }

  @Test
  void aDanglingLinkToAFileThatDoesNotExistYetIsNotCreatedThrough() throws Exception {
    Path elsewhere = dir.resolve("elsewhere");
    Path target = dir.resolve("profile.json");
    Files.createSymbolicLink(target, elsewhere);
    SafeFiles.write(target, out -> out.write('x'));
    assertThat(Files.exists(elsewhere, LinkOption.NOFOLLOW_LINKS)).isFalse();
    assertThat(Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS)).isTrue();
  }

  @Test
  void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws Exception {
    Path target = dir.resolve("profile.json");
    Files.write(target, "old".getBytes(StandardCharsets.UTF_8));
    try {
      SafeFiles.write(target, out -> {
        out.write('x');
        throw new java.io.IOException("disk full");
      });
    } catch (java.io.IOException expected) {
      // as planned
    }
    assertThat(new String(Files.readAllBytes(target), StandardCharsets.UTF_8)).isEqualTo("old");
    assertThat(leftovers()).isZero();
  }

  private long leftovers() throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(".tmp")).count();
    }
  }

  @Test
  void createNewIsPrivateAndNeverReplacesOrFollows() throws Exception {
    Path target = dir.resolve("cap/capture.jsonl");
    try (java.io.OutputStream out = SafeFiles.createNew(target)) {
      out.write('x');
    }
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target))).isEqualTo("rw-------");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SafeFiles.createNew(target))
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    Path victim = dir.resolve("victim");
    Files.write(victim, "precious".getBytes(StandardCharsets.UTF_8));
    Path link = dir.resolve("link.jsonl");
    Files.createSymbolicLink(link, victim);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SafeFiles.createNew(link))
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    Path dangling = dir.resolve("dangling.jsonl");
    Files.createSymbolicLink(dangling, dir.resolve("not-yet"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SafeFiles.createNew(dangling))
        .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    assertThat(Files.exists(dir.resolve("not-yet"))).as("a dangling link's target is not created").isFalse();
    assertThat(new String(Files.readAllBytes(victim), StandardCharsets.UTF_8)).isEqualTo("precious");
  }
}
