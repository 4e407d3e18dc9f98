// csi-snapshotter: the CSI external-snapshotter sidecar. All logic is in run.cpp.
#include "cmd/csi-snapshotter/run.h"

int main(int argc, char** argv) { return csisnapshotter::Run(argc, argv); }
