// csi-mock serves the Kubernetes e2e mock CSI driver
// (k8s.io/kubernetes/test/e2e/storage/drivers/csi-test/mock/service) on a unix
// socket. It is the real CSI driver peer of the tests: the module proxy refuses
// csi-driver-host-path (403), and this is the driver Kubernetes' own e2e suite
// attaches against. Its node ID is its driver name.
//
// Additions to the mock service:
//   - CreateSnapshot reports size_bytes = the source volume's capacity, as real
//     drivers do (the mock leaves it 0, so no restoreSize would ever appear);
//   - every call is logged as "csi-mock call <method>: <code>" (never the
//     request, which may carry secrets), so tests can tell what the driver saw;
//     ControllerPublishVolume and ControllerUnpublishVolume also log
//     "csi-mock start <method> volume=<id> node=<id>" when they begin and add
//     " volume=<id> node=<id>" to that line, so a test can order them per node;
//   - --node-ids: the mock knows one node (its name); each further node ID
//     gets a mock service of its own, named after it, holding the same volumes,
//     that serves the Controller(Un)publishVolume calls for it. A volume's
//     publication is thus the mock's own per node, as in a multi-node cluster.
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
	nodeIDs := flag.String("node-ids", "", "comma-separated further node IDs to publish volumes to "+
		"(each gets a mock of its own with the same volumes)")
	flag.Parse()

	path := strings.TrimPrefix(*endpoint, "unix://")
	_ = os.Remove(path)
	listener, err := net.Listen("unix", path)
	if err != nil {
		log.Fatalf("listen %s: %v", path, err)
	}
	newMock := func(nodeID string) service.Service {
		mock := service.New(service.Config{
			DriverName:    nodeID, // the mock's node ID is its driver name
			DisableAttach: *disableAttach,
			AttachLimit:   *attachLimit,
		})
		for i := 1; i <= *createVolumes; i++ {
			_, err := mock.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
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
		return mock
	}
	driver := newMock(*name)
	nodes := multiNode{Service: sizedSnapshots{driver}, nodes: map[string]service.Service{}}
	for _, id := range strings.Split(*nodeIDs, ",") {
		if id != "" && id != *name {
			nodes.nodes[id] = newMock(id)
		}
	}
	server := grpc.NewServer(grpc.UnaryInterceptor(logCall))
	csi.RegisterIdentityServer(server, driver)
	csi.RegisterControllerServer(server, nodes)
	csi.RegisterNodeServer(server, driver)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	go func() { <-signals; server.Stop() }()
	log.Printf("csi-mock %s serving on %s", *name, path)
	if err := server.Serve(listener); err != nil {
		log.Fatalf("serve: %v", err)
	}
}

// volumeOnNode is what ControllerPublishVolume and ControllerUnpublishVolume
// requests have in common.
type volumeOnNode interface {
	GetVolumeId() string
	GetNodeId() string
}

func logCall(ctx context.Context, req any, info *grpc.UnaryServerInfo,
	handler grpc.UnaryHandler) (any, error) {
	target := ""
	if r, ok := req.(volumeOnNode); ok {
		target = fmt.Sprintf(" volume=%s node=%s", r.GetVolumeId(), r.GetNodeId())
		log.Printf("csi-mock start %s%s", info.FullMethod, target)
	}
	resp, err := handler(ctx, req)
	log.Printf("csi-mock call %s: %s%s", info.FullMethod, status.Code(err), target)
	return resp, err
}

// multiNode sends each Controller(Un)publishVolume call to the mock of its
// node ID (the main one for its own ID and unknown ones, which it refuses
// with NotFound as before), and every volume's creation and deletion to all
// mocks, so they keep the same volumes with the same IDs.
type multiNode struct {
	service.Service
	nodes map[string]service.Service
}

func (m multiNode) ControllerPublishVolume(ctx context.Context,
	req *csi.ControllerPublishVolumeRequest) (*csi.ControllerPublishVolumeResponse, error) {
	if node, ok := m.nodes[req.GetNodeId()]; ok {
		return node.ControllerPublishVolume(ctx, req)
	}
	return m.Service.ControllerPublishVolume(ctx, req)
}

func (m multiNode) ControllerUnpublishVolume(ctx context.Context,
	req *csi.ControllerUnpublishVolumeRequest) (*csi.ControllerUnpublishVolumeResponse, error) {
	if node, ok := m.nodes[req.GetNodeId()]; ok {
		return node.ControllerUnpublishVolume(ctx, req)
	}
	return m.Service.ControllerUnpublishVolume(ctx, req)
}

func (m multiNode) CreateVolume(ctx context.Context,
	req *csi.CreateVolumeRequest) (*csi.CreateVolumeResponse, error) {
	resp, err := m.Service.CreateVolume(ctx, req)
	if err == nil {
		for _, node := range m.nodes {
			_, _ = node.CreateVolume(ctx, req)
		}
	}
	return resp, err
}

func (m multiNode) DeleteVolume(ctx context.Context,
	req *csi.DeleteVolumeRequest) (*csi.DeleteVolumeResponse, error) {
	resp, err := m.Service.DeleteVolume(ctx, req)
	if err == nil {
		for _, node := range m.nodes {
			_, _ = node.DeleteVolume(ctx, req)
		}
	}
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
