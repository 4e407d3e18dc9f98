# One image per binary, as upstream ships them: csi-attacher, csi-snapshotter,
# snapshot-controller, csi-provisioner, csi-resizer, csi-node-driver-registrar
# and livenessprobe, and csi-sidecars (the four controller sidecars in one).
# All eight are built on Debian bookworm with the
# project's own dependency script (lean: gRPC, protobuf, abseil, yaml-cpp and
# the C++ runtime linked statically, cmake/lean_binaries.cmake) and shipped on
# bookworm-slim with only the packages owning the shared libraries they still
# load (deploy/image/runtime-packages.txt, kept exact by
# scripts/check-image-libs.sh), as user 65532 (the two node sidecars as root,
# see their stages), entrypoint /<binary>.
# scripts/image-rootfs.sh builds the same runtime root without a container
# engine; the integration test image_rootfs runs each binary from it.
#
#   docker build --target csi-attacher -t csi-attacher .
#   docker build --target csi-snapshotter -t csi-snapshotter .
#   docker build --target snapshot-controller -t snapshot-controller .
#   docker build --target csi-provisioner -t csi-provisioner .
#   docker build --target csi-resizer -t csi-resizer .
#   docker build --target csi-node-driver-registrar -t csi-node-driver-registrar .
#   docker build --target livenessprobe -t livenessprobe .
#   docker build --target csi-sidecars -t csi-sidecars .

FROM debian:bookworm AS build
# git: the version (--version, user agent) comes from `git describe`.
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY scripts/install-deps.sh scripts/
RUN scripts/install-deps.sh && rm -rf /var/lib/apt/lists/*
COPY . .
RUN git config --global --add safe.directory /src \
    && cmake --preset default -DCSI_ATTACHER_TESTS=OFF \
    && cmake --build --preset default --target csi-attacher csi-snapshotter snapshot-controller \
         csi-provisioner csi-resizer csi-node-driver-registrar livenessprobe csi-sidecars \
    && mkdir /out && for binary in csi-attacher csi-snapshotter snapshot-controller \
         csi-provisioner csi-resizer csi-node-driver-registrar livenessprobe csi-sidecars; do \
         strip --strip-debug -o /out/$binary build/default/cmd/$binary/$binary; done

# What the eight images share: the runtime packages and the non-root user.
FROM debian:bookworm-slim AS runtime
COPY deploy/image/runtime-packages.txt /tmp/runtime-packages.txt
RUN apt-get update \
    && grep -v -E '^\s*(#|$)' /tmp/runtime-packages.txt \
       | xargs apt-get install -y --no-install-recommends \
    && rm -rf /var/lib/apt/lists/* /tmp/runtime-packages.txt
USER 65532:65532

FROM runtime AS snapshot-controller
COPY --from=build /out/snapshot-controller /snapshot-controller
ENTRYPOINT ["/snapshot-controller"]

FROM runtime AS csi-provisioner
COPY --from=build /out/csi-provisioner /csi-provisioner
ENTRYPOINT ["/csi-provisioner"]

FROM runtime AS csi-resizer
COPY --from=build /out/csi-resizer /csi-resizer
ENTRYPOINT ["/csi-resizer"]

# The node sidecars run as root, as upstream's images do: the registrar creates
# its socket in kubelet's plugins_registry, a host directory only root may
# write, and both connect to driver sockets that are usually root's alone.
FROM runtime AS csi-node-driver-registrar
COPY --from=build /out/csi-node-driver-registrar /csi-node-driver-registrar
USER 0:0
ENTRYPOINT ["/csi-node-driver-registrar"]

FROM runtime AS livenessprobe
COPY --from=build /out/livenessprobe /livenessprobe
USER 0:0
ENTRYPOINT ["/livenessprobe"]

FROM runtime AS csi-sidecars
COPY --from=build /out/csi-sidecars /csi-sidecars
ENTRYPOINT ["/csi-sidecars"]

FROM runtime AS csi-snapshotter
COPY --from=build /out/csi-snapshotter /csi-snapshotter
ENTRYPOINT ["/csi-snapshotter"]

# Last, so that a plain `docker build .` still builds the attacher.
FROM runtime AS csi-attacher
COPY --from=build /out/csi-attacher /csi-attacher
ENTRYPOINT ["/csi-attacher"]
