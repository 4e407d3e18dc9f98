// csi-mock serves the Kubernetes e2e mock CSI driver
// (k8s.io/kubernetes/test/e2e/storage/drivers/csi-test/mock/service) on a unix
// socket. It is the real CSI driver peer of the tests: the module proxy refuses
// csi-driver-host-path (403), and this is the driver Kubernetes' own e2e suite
// attaches against. Its node ID is its driver name.
//
// Two additions to the mock service, for the snapshot tests:
//   - CreateSnapshot reports size_bytes = the source volume's capacity, as real
//     drivers do (the mock leaves it 0, so no restoreSize would ever appear);
//   - every call is logged as "csi-mock call <method>: <code>" (never the
//     request, which may carry secrets), so tests can tell what the driver saw.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"
	"k8s.io/kubernetes/test/e2e/storage/drivers/csi-test/mock/service"
)

func main() {
	endpoint := flag.String("endpoint", "/tmp/csi-mock.sock", "unix socket path (or unix://path)")
	name := flag.String("name", "io.kubernetes.storage.mock", "CSI driver name (also its node ID)")
	disableAttach := flag.Bool("disable-attach", false, "do not offer PUBLISH_UNPUBLISH_VOLUME")
	attachLimit := flag.Int64("attach-limit", 0, "maximum volumes per node (0 = unlimited)")
	createVolumes := flag.Int("create-volumes", 0, "volumes to create at start, named vol-1..vol-N "+
		"(the driver also has three built-in volumes with IDs 1, 2, 3; created ones get IDs 4, 5, ...)")
	flag.Parse()

	path := strings.TrimPrefix(*endpoint, "unix://")
	_ = os.Remove(path)
	listener, err := net.Listen("unix", path)
	if err != nil {
		log.Fatalf("listen %s: %v", path, err)
	}
	driver := service.New(service.Config{
		DriverName:    *name,
		DisableAttach: *disableAttach,
		AttachLimit:   *attachLimit,
	})
	for i := 1; i <= *createVolumes; i++ {
		_, err := driver.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
			Name: fmt.Sprintf("vol-%d", i),
			VolumeCapabilities: []*csi.VolumeCapability{{
				AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
				AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER},
			}},
		})
		if err != nil {
			log.Fatalf("create volume %d: %v", i, err)
		}
	}
	server := grpc.NewServer(grpc.UnaryInterceptor(logCall))
	csi.RegisterIdentityServer(server, driver)
	csi.RegisterControllerServer(server, sizedSnapshots{driver})
	csi.RegisterNodeServer(server, driver)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-signals; server.Stop() }()
	log.Printf("csi-mock %s serving on %s", *name, path)
	if err := server.Serve(listener); err != nil {
		log.Fatalf("serve: %v", err)
	}
}

func logCall(ctx context.Context, req any, info *grpc.UnaryServerInfo,
	handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	log.Printf("csi-mock call %s: %s", info.FullMethod, status.Code(err))
	return resp, err
}

// sizedSnapshots fills in the size of a created snapshot from its source volume.
// The mock answers with a copy of its cached snapshot, so setting the size on
// the answer leaves its cache as it was.
type sizedSnapshots struct{ service.Service }

func (s sizedSnapshots) CreateSnapshot(ctx context.Context,
	req *csi.CreateSnapshotRequest) (*csi.CreateSnapshotResponse, error) {
	resp, err := s.Service.CreateSnapshot(ctx, req)
	if err != nil || resp.GetSnapshot() == nil || resp.GetSnapshot().GetSizeBytes() != 0 {
		return resp, err
	}
	volumes, err := s.Service.ListVolumes(ctx, &csi.ListVolumesRequest{})
	if err != nil {
		return resp, nil
	}
	for _, entry := range volumes.GetEntries() {
		if entry.GetVolume().GetVolumeId() == req.GetSourceVolumeId() {
			resp.Snapshot.SizeBytes = entry.GetVolume().GetCapacityBytes()
			break
		}
	}
	return resp, nil
}
