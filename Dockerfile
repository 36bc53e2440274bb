# Stint's operator image: the shaded jar run by bin/stint (the JVM flags Stint is benchmarked with), as a non-root
# user, with an empty plugins directory. The same layout as the Jib build (mvn -Pimage, operator/pom.xml) and what
# deploy/base/deployment.yaml runs (OperatorImageTest checks that the three agree).
#
#   mvn -B install -DskipTests          # writes operator/target/stint-operator.jar
#   docker build -t registry.example.com/stint:0.1.0 .
# the base pinned by the digest of the tag's multi-arch index, the same as the Jib build's (operator/pom.xml says
# where it comes from and how to refresh it)
FROM eclipse-temurin:17-jre@sha256:c6f2875c05ea10f16398bdc5f73405c384991506f2f1ead8bcc6582ae8adea79

# a fixed uid and gid, so that the Deployment's runAsUser/runAsGroup name the same user
RUN groupadd --system --gid 10001 stint \
 && useradd --system --uid 10001 --gid 10001 --home-dir /opt/stint --no-create-home --shell /usr/sbin/nologin stint \
 && mkdir -p /opt/stint/plugins

COPY --chmod=0755 bin/stint /opt/stint/bin/stint
COPY --chmod=0644 operator/target/stint-operator.jar /opt/stint/lib/stint-operator.jar

ENV STINT_JAR=/opt/stint/lib/stint-operator.jar
USER 10001:10001
WORKDIR /opt/stint
# run, explicitly: the jar without a command and without a cluster starts the demo
ENTRYPOINT ["/opt/stint/bin/stint"]
CMD ["run"]
