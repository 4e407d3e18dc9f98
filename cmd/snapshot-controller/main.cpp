// snapshot-controller: the cluster-wide half of the CSI external-snapshotter. All logic is in
// run.cpp.
#include "cmd/snapshot-controller/run.h"

int main(int argc, char** argv) { return snapshotcontroller::Run(argc, argv); }
