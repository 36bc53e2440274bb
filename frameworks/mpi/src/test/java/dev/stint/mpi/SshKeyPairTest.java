package dev.stint.mpi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stint.spi.SupportingResource;
import io.fabric8.kubernetes.api.model.Secret;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.AlgorithmParameters;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.ECPoint;
import java.security.spec.ECPublicKeySpec;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The SSH key pair in the MPI Operator's formats, checked by reading them back: the public key as OpenSSH's wire
 * format, the private key as SEC 1 DER and, wrapped in PKCS #8, through the JDK's own EC key parser; then a signature
 * by one verifies with the other.
 */
class SshKeyPairTest {

  private static SshKeyPair pair;

  @BeforeAll
  static void generate() {
    pair = SshKeyPair.generate();
  }

  @Test
  void publicKeyIsAnAuthorizedKeysLineForNistP521() {
    assertThat(pair.authorizedKey()).startsWith("ecdsa-sha2-nistp521 AAAA").endsWith("\n")
        .doesNotContain("\r").hasLineCount(1);
    ByteBuffer blob = ByteBuffer.wrap(publicBlob());

    assertThat(new String(sshString(blob), StandardCharsets.US_ASCII)).isEqualTo("ecdsa-sha2-nistp521");
    assertThat(new String(sshString(blob), StandardCharsets.US_ASCII)).isEqualTo("nistp521");
    byte[] point = sshString(blob);
    assertThat(point).hasSize(1 + 2 * 66);
    assertThat(point[0]).as("uncompressed point").isEqualTo((byte) 0x04);
    assertThat(blob.hasRemaining()).isFalse();
  }

  @Test
  void privateKeyIsSec1PemAsGoWritesIt() {
    String pem = pair.privateKeyPem();
    assertThat(pem).startsWith("-----BEGIN EC PRIVATE KEY-----\n").endsWith("\n-----END EC PRIVATE KEY-----\n");
    assertThat(pem.lines().filter(l -> !l.startsWith("-----")))
        .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(64));
    ByteBuffer der = ByteBuffer.wrap(privateDer());

    ByteBuffer key = ByteBuffer.wrap(element(der, 0x30));
    assertThat(element(key, 0x02)).as("version").containsExactly(1);
    assertThat(element(key, 0x04)).as("private scalar").hasSize(66);
    assertThat(HexFormat.of().formatHex(element(key, 0xA0))).as("[0] secp521r1").isEqualTo("06052b81040023");
    ByteBuffer publicKey = ByteBuffer.wrap(element(key, 0xA1));
    byte[] bits = element(publicKey, 0x03);
    assertThat(bits[0]).as("unused bits").isZero();
    assertThat(Arrays.copyOfRange(bits, 1, bits.length)).as("same point as the public key").isEqualTo(publicPoint());
    assertThat(der.hasRemaining()).isFalse();
  }

  @Test
  void privateKeyDecodesToAnEcKeyOnSecp521r1ThatSignsForThePublicKey() throws Exception {
    PrivateKey privateKey = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(pkcs8(privateDer())));
    assertThat(privateKey).isInstanceOf(ECPrivateKey.class);
    ECParameterSpec curve = secp521r1();
    assertThat(((ECPrivateKey) privateKey).getParams().getCurve()).isEqualTo(curve.getCurve());
    assertThat(((ECPrivateKey) privateKey).getParams().getOrder()).isEqualTo(curve.getOrder());

    byte[] point = publicPoint();
    ECPoint w = new ECPoint(new BigInteger(1, Arrays.copyOfRange(point, 1, 67)),
        new BigInteger(1, Arrays.copyOfRange(point, 67, 133)));
    PublicKey publicKey = KeyFactory.getInstance("EC").generatePublic(new ECPublicKeySpec(w, curve));
    byte[] message = "mpirun".getBytes(StandardCharsets.US_ASCII);
    Signature signer = Signature.getInstance("SHA512withECDSA");
    signer.initSign(privateKey);
    signer.update(message);
    byte[] signature = signer.sign();
    Signature verifier = Signature.getInstance("SHA512withECDSA");
    verifier.initVerify(publicKey);
    verifier.update(message);
    assertThat(verifier.verify(signature)).isTrue();
  }

  @Test
  void everyPairIsNewAndToStringHidesThePrivateKey() {
    SshKeyPair other = SshKeyPair.generate();
    assertThat(other.privateKeyPem()).isNotEqualTo(pair.privateKeyPem());
    assertThat(pair.toString()).doesNotContain("PRIVATE").contains("ecdsa-sha2-nistp521");
  }

  @Test
  void theSecretIsNamedNowAndItsKeyPairMadeOnlyWhenCreated() {
    MPIJob a = TestMPIJobs.job("a").launcher().build();
    SupportingResource supporting = SshAuthSecrets.of(a);
    assertThat(supporting.createOnly()).isTrue();
    assertThat(supporting.resource().getMetadata().getName()).isEqualTo("a-ssh");
    assertThat(((Secret) supporting.resource()).getData()).as("no key made before the engine creates it")
        .isNullOrEmpty();

    Secret first = (Secret) supporting.toCreate();
    assertThat(((Secret) supporting.toCreate()).getData()).as("a new pair for each creation: no state kept")
        .isNotEqualTo(first.getData());
    assertThat(first.getMetadata().getName()).isEqualTo("a-ssh");
    assertThat(first.getType()).isEqualTo("kubernetes.io/ssh-auth");
    assertThat(first.getData()).containsOnlyKeys("ssh-privatekey", "ssh-publickey");
    assertThat(decode(first.getData().get("ssh-publickey"))).startsWith("ecdsa-sha2-nistp521 ");
    assertThat(decode(first.getData().get("ssh-privatekey"))).startsWith("-----BEGIN EC PRIVATE KEY-----");
  }

  private static String decode(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.US_ASCII);
  }

  private static byte[] publicBlob() {
    return Base64.getDecoder().decode(pair.authorizedKey().strip().split(" ")[1]);
  }

  private static byte[] publicPoint() {
    ByteBuffer blob = ByteBuffer.wrap(publicBlob());
    sshString(blob);
    sshString(blob);
    return sshString(blob);
  }

  private static byte[] privateDer() {
    String body = pair.privateKeyPem().lines().filter(l -> !l.startsWith("-----")).reduce("", String::concat);
    return Base64.getDecoder().decode(body);
  }

  private static byte[] sshString(ByteBuffer buffer) {
    byte[] value = new byte[buffer.getInt()];
    buffer.get(value);
    return value;
  }

  /** Reads one DER element of the expected tag and returns its content. */
  private static byte[] element(ByteBuffer der, int tag) {
    assertThat(der.get() & 0xFF).as("tag").isEqualTo(tag);
    int length = der.get() & 0xFF;
    if (length >= 0x80) {
      int bytes = length & 0x7F;
      length = 0;
      for (int i = 0; i < bytes; i++) {
        length = (length << 8) | (der.get() & 0xFF);
      }
    }
    byte[] content = new byte[length];
    der.get(content);
    return content;
  }

  /** PKCS #8 around a SEC 1 key: {@code SEQUENCE {0, {id-ecPublicKey, secp521r1}, OCTET STRING sec1}}. */
  private static byte[] pkcs8(byte[] sec1) {
    byte[] algorithm = HexFormat.of().parseHex("301006072a8648ce3d020106052b81040023");
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    content.writeBytes(new byte[] {0x02, 0x01, 0x00});
    content.writeBytes(algorithm);
    content.writeBytes(tagged(0x04, sec1));
    return tagged(0x30, content.toByteArray());
  }

  /** One DER element, its length in the shortest form (DER allows no other). */
  private static byte[] tagged(int tag, byte[] content) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    if (content.length < 0x80) {
      out.write(content.length);
    } else if (content.length <= 0xFF) {
      out.write(0x81);
      out.write(content.length);
    } else {
      out.write(0x82);
      out.write(content.length >>> 8);
      out.write(content.length & 0xFF);
    }
    out.writeBytes(content);
    return out.toByteArray();
  }

  private static ECParameterSpec secp521r1() throws Exception {
    AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
    parameters.init(new ECGenParameterSpec("secp521r1"));
    return parameters.getParameterSpec(ECParameterSpec.class);
  }
}
