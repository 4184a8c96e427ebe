// aimdlab crosscheck's ns-3 peer: a dumbbell in ns-3 3.44, read from a plan file that
// `aimdlab/crosscheck/ns3.py` writes, measured the way `ns3.py` reads it back.
//
// Built on first use against the ns3 wheel's headers and libraries (`ns3.py`, `build`), into
// aimdlab's cache folder. Usage: ns3_dumbbell PLAN_FILE
//
// The plan is one directive per line:
//   default NAME VALUE          Config::SetDefault(NAME, VALUE): every TCP and queue setting
//   run K                       the RNG run number (the seed)
//   times DURATION WARMUP DT    seconds: the end, the start of the measured window, the sample interval
//   bottleneck RATE DELAY QDISC LIMIT REVERSE_LIMIT
//                               bits/s, seconds, fifo|red, packets (R1->R2), packets (R2->R1)
//   loss RATE                   a packet error rate on the bottleneck's data (a RateErrorModel at R2)
//   flow TYPEID START STOP SRATE SDELAY SLIMIT RRATE RDELAY RLIMIT BYTES
//                               one TCP flow: its congestion control's TypeId, start and stop
//                               (seconds; STOP < 0: never), its sender's and its receiver's access
//                               link (bits/s, seconds, packets), and the bytes it sends (0: bulk)
//
// Topology: sender i -- R1 == bottleneck == R2 -- receiver i. Every point-to-point device
// holds one packet in its own transmit queue (MaxSize 1p) under a traffic-control queue disc,
// which is the buffer: the bottleneck's is FIFO or RED with LIMIT packets, every other one FIFO.
//
// Output, one line each:
//   S t queue cwnd0             every DT: packets in the bottleneck's queue disc, flow 0's cwnd in bytes
//   W|E t bytes pkts drops marks queue_integral { rx retx rtos }   at WARMUP and at DURATION:
//       bytes and packets that finished transmission on the bottleneck (PPP header included), the bottleneck
//       queue disc's drops and ECN marks since the start, the time integral of its packet count
//       (packet-seconds); per flow the payload bytes its sink received, its retransmitted
//       segments, and its retransmission timeouts (each RTO expiry, backoffs included: the RTO
//       doubling that `TcpSocketBase::ReTxTimeout` makes, up to its 60 s cap).

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// One flow as the plan gives it, and what is counted of it.
struct Flow
{
    std::string typeId;
    double start_s = 0;
    double stop_s = -1;
    double senderRate_bps = 0, senderDelay_s = 0;
    uint32_t senderLimit_pkts = 0;
    double receiverRate_bps = 0, receiverDelay_s = 0;
    uint32_t receiverLimit_pkts = 0;
    uint64_t maxBytes = 0;
    Ptr<BulkSendApplication> app;
    Ptr<PacketSink> sink;
    uint64_t retransmissions = 0;
    uint64_t rtos = 0;
    double cwnd_bytes = 0;
};

std::vector<Flow> g_flows;
Ptr<QueueDisc> g_bottleneckQueue;
uint64_t g_bottleneckBytes = 0;
uint64_t g_bottleneckPkts = 0;
double g_queueIntegral = 0;  // packet-seconds
double g_queueSince_s = 0;   // when the queue last changed
uint32_t g_queuePkts = 0;

void
BottleneckTxEnd(Ptr<const Packet> p)
{
    g_bottleneckBytes += p->GetSize();
    g_bottleneckPkts++;
}

void
QueueChanged(uint32_t, uint32_t now_pkts)
{
    double t = Simulator::Now().GetSeconds();
    g_queueIntegral += g_queuePkts * (t - g_queueSince_s);
    g_queueSince_s = t;
    g_queuePkts = now_pkts;
}

void
Retransmission(size_t i, Ptr<const Packet>, const TcpHeader&, const Address&, const Address&,
               Ptr<const TcpSocketBase>)
{
    g_flows[i].retransmissions++;
}

/// An RTO expiry doubles the RTO (capped at 60 s); an RTT sample sets it otherwise.
void
RtoChanged(size_t i, Time before, Time after)
{
    if (after == Min(before + before, Seconds(60)) && after != before)
    {
        g_flows[i].rtos++;
    }
}

void
CwndChanged(size_t i, uint32_t, uint32_t after)
{
    g_flows[i].cwnd_bytes = after;
}

/// The flow's socket exists once its application started: hook its traces then.
void
Hook(size_t i)
{
    Ptr<Socket> socket = g_flows[i].app->GetSocket();
    socket->TraceConnectWithoutContext("Retransmission", MakeBoundCallback(&Retransmission, i));
    socket->TraceConnectWithoutContext("RTO", MakeBoundCallback(&RtoChanged, i));
    socket->TraceConnectWithoutContext("CongestionWindow", MakeBoundCallback(&CwndChanged, i));
}

void
Sample(double dt_s)
{
    double cwnd = g_flows.empty() ? 0 : g_flows[0].cwnd_bytes;
    std::printf("S %.9g %u %.0f\n", Simulator::Now().GetSeconds(), g_queuePkts, cwnd);
    Simulator::Schedule(Seconds(dt_s), &Sample, dt_s);
}

void
Snapshot(char tag)
{
    QueueChanged(g_queuePkts, g_queuePkts);  // (brings the integral up to now)
    const QueueDisc::Stats& stats = g_bottleneckQueue->GetStats();
    std::printf("%c %.9g %llu %llu %u %u %.12g", tag, Simulator::Now().GetSeconds(),
                static_cast<unsigned long long>(g_bottleneckBytes),
                static_cast<unsigned long long>(g_bottleneckPkts), stats.nTotalDroppedPackets,
                stats.nTotalMarkedPackets, g_queueIntegral);
    for (const Flow& f : g_flows)
    {
        std::printf(" %llu %llu %llu", static_cast<unsigned long long>(f.sink->GetTotalRx()),
                    static_cast<unsigned long long>(f.retransmissions),
                    static_cast<unsigned long long>(f.rtos));
    }
    std::printf("\n");
    std::fflush(stdout);
}

[[noreturn]] void
Fail(const std::string& why)
{
    std::fprintf(stderr, "ns3_dumbbell: %s\n", why.c_str());
    std::exit(2);
}

/// A point-to-point link between a and b whose devices hold one packet each (their queue
/// discs are installed by the caller).
NetDeviceContainer
Link(Ptr<Node> a, Ptr<Node> b, double rate_bps, double delay_s)
{
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(static_cast<uint64_t>(rate_bps))));
    p2p.SetChannelAttribute("Delay", TimeValue(Seconds(delay_s)));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    return p2p.Install(a, b);
}

QueueDiscContainer
Fifo(Ptr<NetDevice> device, uint32_t limit_pkts)
{
    TrafficControlHelper tch;
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize",
                         QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, limit_pkts)));
    return tch.Install(device);
}

} // namespace

int
main(int argc, char* argv[])
{
    if (argc != 2)
    {
        Fail("usage: ns3_dumbbell PLAN_FILE");
    }
    std::ifstream plan(argv[1]);
    if (!plan)
    {
        Fail(std::string("cannot read ") + argv[1]);
    }
    double duration_s = 0, warmup_s = 0, sample_s = 0.1;
    double bnRate_bps = 0, bnDelay_s = 0;
    uint32_t bnLimit = 0, reverseLimit = 0;
    double lossRate = 0;
    std::string bnQdisc = "fifo";
    std::string line;
    while (std::getline(plan, line))
    {
        std::istringstream in(line);
        std::string word;
        if (!(in >> word) || word[0] == '#')
        {
            continue;
        }
        if (word == "default")
        {
            std::string name, value;
            in >> name >> value;
            Config::SetDefault(name, StringValue(value));
        }
        else if (word == "run")
        {
            uint64_t run = 1;
            in >> run;
            RngSeedManager::SetSeed(1);
            RngSeedManager::SetRun(run);
        }
        else if (word == "times")
        {
            in >> duration_s >> warmup_s >> sample_s;
        }
        else if (word == "bottleneck")
        {
            in >> bnRate_bps >> bnDelay_s >> bnQdisc >> bnLimit >> reverseLimit;
        }
        else if (word == "loss")
        {
            in >> lossRate;
        }
        else if (word == "flow")
        {
            Flow f;
            in >> f.typeId >> f.start_s >> f.stop_s >> f.senderRate_bps >> f.senderDelay_s >>
                f.senderLimit_pkts >> f.receiverRate_bps >> f.receiverDelay_s >> f.receiverLimit_pkts >> f.maxBytes;
            g_flows.push_back(f);
        }
        else
        {
            Fail("unknown directive " + word);
        }
        if (in.fail())
        {
            Fail("cannot read the line: " + line);
        }
    }
    if (duration_s <= 0 || bnRate_bps <= 0 || g_flows.empty())
    {
        Fail("the plan gives no duration, bottleneck or flow");
    }

    NodeContainer routers(2);
    NodeContainer senders(g_flows.size());
    NodeContainer receivers(g_flows.size());
    InternetStackHelper stack;
    stack.Install(routers);
    stack.Install(senders);
    stack.Install(receivers);

    // Queue discs go on before addresses, so that no default one is installed.
    Ipv4AddressHelper addresses;
    std::vector<std::pair<NetDeviceContainer, std::string>> subnets;
    NetDeviceContainer bn = Link(routers.Get(0), routers.Get(1), bnRate_bps, bnDelay_s);
    TrafficControlHelper bottleneck;
    if (bnQdisc == "red")
    {
        bottleneck.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize",
                                    QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bnLimit)),
                                    "LinkBandwidth", DataRateValue(DataRate(static_cast<uint64_t>(bnRate_bps))),
                                    "LinkDelay", TimeValue(Seconds(bnDelay_s)));
    }
    else
    {
        bottleneck.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize",
                                    QueueSizeValue(QueueSize(QueueSizeUnit::PACKETS, bnLimit)));
    }
    g_bottleneckQueue = bottleneck.Install(bn.Get(0)).Get(0);
    Fifo(bn.Get(1), reverseLimit);
    if (lossRate > 0)
    {
        // Lost after its transmission, at the receiving device: only data goes R1 -> R2.
        Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
        em->SetAttribute("ErrorRate", DoubleValue(lossRate));
        em->SetAttribute("ErrorUnit", StringValue("ERROR_UNIT_PACKET"));
        bn.Get(1)->SetAttribute("ReceiveErrorModel", PointerValue(em));
    }
    subnets.emplace_back(bn, "10.0.0.0");
    for (size_t i = 0; i < g_flows.size(); ++i)
    {
        const Flow& f = g_flows[i];
        NetDeviceContainer up = Link(senders.Get(i), routers.Get(0), f.senderRate_bps, f.senderDelay_s);
        Fifo(up.Get(0), f.senderLimit_pkts);
        Fifo(up.Get(1), f.senderLimit_pkts);
        NetDeviceContainer down = Link(routers.Get(1), receivers.Get(i), f.receiverRate_bps, f.receiverDelay_s);
        Fifo(down.Get(0), f.receiverLimit_pkts);
        Fifo(down.Get(1), f.receiverLimit_pkts);
        subnets.emplace_back(up, "10." + std::to_string(1 + i / 250) + "." + std::to_string(i % 250) + ".0");
        subnets.emplace_back(down, "11." + std::to_string(1 + i / 250) + "." + std::to_string(i % 250) + ".0");
    }
    std::vector<Ipv4InterfaceContainer> interfaces;
    for (auto& [devices, base] : subnets)
    {
        addresses.SetBase(base.c_str(), "255.255.255.0");
        interfaces.push_back(addresses.Assign(devices));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    bn.Get(0)->TraceConnectWithoutContext("PhyTxEnd", MakeCallback(&BottleneckTxEnd));
    g_bottleneckQueue->TraceConnectWithoutContext("PacketsInQueue", MakeCallback(&QueueChanged));

    const uint16_t port = 5000;
    for (size_t i = 0; i < g_flows.size(); ++i)
    {
        Flow& f = g_flows[i];
        // The receiver's socket is of the sender's class too: it decides how ECN is echoed
        // (TcpDctcp's receiver echoes each mark exactly).
        for (Ptr<Node> node : {senders.Get(i), receivers.Get(i)})
        {
            node->GetObject<TcpL4Protocol>()->SetAttribute("SocketType", TypeIdValue(TypeId::LookupByName(f.typeId)));
        }
        Ipv4Address to = interfaces[2 + 2 * i].GetAddress(1);
        BulkSendHelper source("ns3::TcpSocketFactory", InetSocketAddress(to, port));
        source.SetAttribute("MaxBytes", UintegerValue(f.maxBytes));
        ApplicationContainer app = source.Install(senders.Get(i));
        app.Start(Seconds(f.start_s));
        if (f.stop_s >= 0)
        {
            app.Stop(Seconds(f.stop_s));
        }
        f.app = DynamicCast<BulkSendApplication>(app.Get(0));
        PacketSinkHelper sinkHelper("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sinkApp = sinkHelper.Install(receivers.Get(i));
        sinkApp.Start(Seconds(0));
        f.sink = DynamicCast<PacketSink>(sinkApp.Get(0));
        Simulator::Schedule(Seconds(f.start_s) + NanoSeconds(1), &Hook, i);
    }

    Simulator::Schedule(Seconds(0), &Sample, sample_s);
    Simulator::Schedule(Seconds(warmup_s), &Snapshot, 'W');
    Simulator::Schedule(Seconds(duration_s), &Snapshot, 'E');
    Simulator::Stop(Seconds(duration_s) + NanoSeconds(1));
    Simulator::Run();
    Simulator::Destroy();
    return 0;
}
