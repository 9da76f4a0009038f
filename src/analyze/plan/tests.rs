use super::*;
use crate::analyze::{expected, Config};
use crate::result::analysis::BurstModel;

fn cat() -> Catalog {
    Catalog::built_in().priced_in(&[])
}

#[test]
fn the_vm_binds_before_four_p30s() {
    let cfg = Config { disk: Some("P30".into()), count: 4, vm: Some("D8s_v3".into()), ..Config::default() };
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.iops, x.iops_by.as_str(), x.disks_iops), (12800.0, "VM D8s_v3 uncached", Some(20000.0)));
    assert_eq!((x.mbps, x.mbps_by.as_str()), (Some(192.0), "VM D8s_v3 uncached"));
}

#[test]
fn three_p30s_on_a_d2s_v4_sustain_3200_and_burst_to_the_vms_4000() {
    let cfg = Config { disk: Some("P30".into()), count: 3, vm: Some("D2s_v4".into()), ..Config::default() };
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.iops, x.iops_by.as_str()), (3200.0, "VM D2s_v4 uncached"));
    assert_eq!((x.burst_iops, x.burst_iops_by.as_deref()), (Some(4000.0), Some("VM D2s_v4 uncached burst")));
    assert_eq!(x.burst_mbps, Some(200.0));
    // Only the VM bursts: P30's on-demand bursting is billed and off unless asked for.
    assert_eq!(x.bursts.len(), 1);
    assert_eq!((x.bursts[0].by.as_str(), x.bursts[0].model), ("VM D2s_v4 uncached", BurstModel::Credit));
}

#[test]
fn on_a_d8s_v4_the_disks_bind_the_burst_unless_they_burst_on_demand() {
    let mut cfg = Config { disk: Some("P30".into()), count: 3, vm: Some("D8s_v4".into()), ..Config::default() };
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.iops, x.burst_iops, x.burst_iops_by.as_deref()), (12800.0, Some(15000.0), Some("3 × P30")));
    cfg.on_demand_burst = true;
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.burst_iops, x.burst_iops_by.as_deref()), (Some(16000.0), Some("VM D8s_v4 uncached burst")));
    let models: Vec<BurstModel> = x.bursts.iter().map(|b| b.model).collect();
    assert_eq!(models, vec![BurstModel::OnDemand, BurstModel::Credit]);
}

#[test]
fn credit_bursting_small_disks_burst_on_their_own_and_a_host_cache_does_not_burst() {
    let cfg = Config { disk: Some("P10".into()), count: 2, ..Config::default() };
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.iops, x.burst_iops, x.burst_mbps), (1000.0, Some(7000.0), Some(340.0)));
    assert_eq!(x.bursts[0].model, BurstModel::Credit);
    let cfg = Config { vm: Some("D8s_v3".into()), cached: true, ..Config::default() };
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.iops, x.burst_iops), (16000.0, None));
}

#[test]
fn plans_say_what_bursting_adds() {
    let t = Target {
        iops: 3000.0,
        mbps: 40.0,
        clouds: vec!["azure".into()],
        max_disks: 3,
        size_gib: None,
        generations_together: false,
    };
    let p = plan(&cat(), &t);
    let c = p
        .iter()
        .find(|c| c.disk == "P30" && c.count == 1 && c.vm.as_deref() == Some("D2s_v4"))
        .expect("one P30 on a D2s_v4 meets it");
    assert_eq!((c.iops, c.burst_iops), (3200.0, Some(4000.0)));
}

#[test]
fn three_e30_disks_cap_at_1500_iops() {
    let cfg = Config { disk: Some("E30".into()), count: 3, ..Config::default() };
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.iops, x.mbps, x.iops_by.as_str()), (1500.0, Some(180.0), "3 × E30"));
}

#[test]
fn gp3_at_16000_iops_needs_32_gib() {
    let t = Target {
        iops: 16000.0,
        mbps: 0.0,
        clouds: vec!["aws".into()],
        max_disks: 1,
        size_gib: None,
        generations_together: false,
    };
    let gp3 = plan(&cat(), &t).into_iter().find(|c| c.disk == "gp3").expect("gp3 can do it");
    assert_eq!((gp3.disk_gib, gp3.provisioned_iops), (32.0, Some(16000.0)));
}

#[test]
fn pd_ssd_on_a_4_vcpu_n2_is_capped_at_15000() {
    let cfg = Config {
        disk: Some("pd-ssd".into()),
        count: 1,
        vm: Some("n2-standard-4".into()),
        size_gib: Some(1000.0),
        ..Config::default()
    };
    let x = expected(&cat(), &cfg).unwrap().unwrap();
    assert_eq!((x.iops, x.disks_iops), (15000.0, Some(36000.0)));
    assert!(x.iops_by.starts_with("VM n2 2-7 vCPU"), "{}", x.iops_by);
}

#[test]
fn large_io_counts_as_several_and_bandwidth_binds() {
    let caps = Caps { iops: 5000.0, mbps: 200.0 };
    let t = at_sizes(caps, Some(256), &[4096, 65536, 1 << 20]);
    assert_eq!((t[0].iops, t[0].binds), (5000.0, "iops"));
    assert_eq!(t[1].binds, "mbps");
    assert!((t[2].iops - 200e6 / 1048576.0).abs() < 1e-6);
    // 1 MiB counts as four I/Os: a 5,000-IOPS disk with ample bandwidth does 1,250 of them.
    let t = at_sizes(Caps { iops: 5000.0, mbps: 10_000.0 }, Some(256), &[1 << 20]);
    assert_eq!((t[0].iops, t[0].binds), (1250.0, "iops"));
}

#[test]
fn plans_rank_current_generations_first_then_by_price_and_meet_the_target() {
    let t = Target {
        iops: 20000.0,
        mbps: 300.0,
        clouds: vec!["azure".into()],
        max_disks: 8,
        size_gib: None,
        generations_together: false,
    };
    let p = plan(&cat(), &t);
    assert!(!p.is_empty());
    assert!(p.iter().all(|c| c.iops >= 20000.0 && c.mbps >= 300.0));
    // Every current configuration comes before every previous-generation one.
    let first_old = p.iter().position(|c| c.previous).expect("v3/v4 configurations are listed");
    assert!(p[first_old..].iter().all(|c| c.previous), "a current one after {:?}", p[first_old]);
    assert!(p[first_old..].iter().any(|c| c.disk == "P30" && c.count == 4 && c.vm.as_deref() == Some("D16s_v3")));
    // Within each generation: priced ones by price, then the rest, fewest disks first.
    for part in [&p[..first_old], &p[first_old..]] {
        let class = |c: &Candidate| c.price_month.is_none();
        assert!(part.windows(2).all(|w| class(&w[0]) <= class(&w[1])));
        let unpriced: Vec<u32> = part.iter().filter(|c| class(c)).map(|c| c.count).collect();
        assert!(unpriced.windows(2).all(|w| w[0] <= w[1]), "{unpriced:?}");
        let full: Vec<f64> = part.iter().filter_map(|c| c.price_month).collect();
        assert!(full.windows(2).all(|w| w[0] <= w[1]), "{full:?}");
    }
    // Ranked together on request, a previous generation may lead.
    let t = Target { generations_together: true, ..t };
    let q = plan(&cat(), &t);
    assert_eq!(q.len(), p.len());
}

#[test]
fn an_ebsv5_offers_its_nvme_caps_as_a_configuration_of_its_own() {
    // 30,000 IOPS on Premium SSD v2: E8bs_v5's SCSI cap for it is 32,400, its NVMe cap 44,200.
    let t = Target {
        iops: 40000.0,
        mbps: 300.0,
        clouds: vec!["azure".into()],
        max_disks: 1,
        size_gib: None,
        generations_together: false,
    };
    let p = plan(&cat(), &t);
    let on =
        |vm: &str, ctl: Option<&str>| p.iter().find(|c| c.vm.as_deref() == Some(vm) && c.controller.as_deref() == ctl);
    let nvme = on("E8bs_v5", Some("NVMe")).expect("E8bs_v5 on NVMe carries 40,000 IOPS of Premium SSD v2");
    assert_eq!((nvme.disk.as_str(), nvme.iops), ("PremiumV2_LRS", 40000.0));
    assert!(on("E8bs_v5", None).is_none(), "SCSI's 32,400 IOPS cannot carry 40,000");
}

#[test]
fn more_disks_that_give_nothing_more_are_left_out() {
    let t = Target {
        iops: 2000.0,
        mbps: 40.0,
        clouds: vec!["aws".into()],
        max_disks: 8,
        size_gib: None,
        generations_together: false,
    };
    let p = plan(&cat(), &t);
    let gp3: Vec<u32> =
        p.iter().filter(|c| c.disk == "gp3" && c.vm.as_deref() == Some("m6i.large")).map(|c| c.count).collect();
    // One gp3 gives 3,000 IOPS; two reach m6i.large's 3,600: a third and more give nothing more.
    assert_eq!(gp3, [1, 2]);
    // The cheapest meets the target for 1 GiB of gp3 at its free 3,000 IOPS on an m6i.large
    // (the m5.large costs the same an hour, but is of the previous generation).
    assert_eq!((p[0].disk.as_str(), p[0].count, p[0].vm.as_deref()), ("gp3", 1, Some("m6i.large")));
    assert!((p[0].price_month.unwrap() - (0.08 + 0.096 * 730.0)).abs() < 1e-9, "{:?}", p[0]);
    assert_eq!(p[0].region.as_deref(), Some("us-east-1"));
    assert_eq!(p[0].sources, ["B1", "P3", "E5", "P1"].map(String::from), "{:?}", p[0]);
}

#[test]
fn beyond_every_vm_the_plan_is_empty_and_says_why() {
    let cat = cat();
    let t = Target { iops: 200_000.0, mbps: 4000.0, clouds: vec!["azure".into()], max_disks: 8, ..Target::default() };
    let found = plan(&cat, &t);
    // Disks could (Ultra Disk, Premium SSD v2 striped) but none without a VM to bound them.
    assert!(found.is_empty(), "{:?}", found.first());
    let why = no_vm_carries(&cat, &t, &found);
    assert_eq!(why.len(), 1, "{why:?}");
    assert!(
        why[0].starts_with(
            "no azure VM in the catalog carries 200,000 IOPS and 4,000 MB/s uncached: the most any gives is "
        ),
        "{}",
        why[0]
    );
    assert!(why[0].ends_with("would, on a VM the catalog does not hold"), "{}", why[0]);
    // A target some VM carries leaves nothing to explain, and every row names its VM.
    let t = Target { iops: 20_000.0, mbps: 400.0, ..t };
    let found = plan(&cat, &t);
    assert!(!found.is_empty() && found.iter().all(|c| c.vm.is_some()));
    assert!(no_vm_carries(&cat, &t, &found).is_empty());
    // Disks of a cloud with no VM in the catalog (an on-premises SAN) stand alone.
    let mut san = Catalog::load_with(None, None).unwrap();
    san.disks.retain(|d| d.cloud == "azure" && d.name == "P30");
    san.vms.clear();
    let t = Target { iops: 5000.0, mbps: 200.0, clouds: Vec::new(), max_disks: 1, ..Target::default() };
    let alone = plan(&san, &t);
    assert_eq!((alone.len(), alone[0].vm.as_deref()), (1, None));
}
