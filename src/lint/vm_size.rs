//! How many CUDA devices a node of an Azure VM size has, for the ParallelRunStep check
//! that a node runs no more worker processes than it has GPUs (a process beyond the GPU
//! count gets no `CUDA_VISIBLE_DEVICES` of its own, so it shares or misses a GPU).
//!
//! From Microsoft's VM size pages (GPU-accelerated families NC, ND, NG, NV). The only
//! families with accelerators start with `N` after `Standard_`; the AMD (NVv4, NG, V710,
//! MI300X) and FPGA (NP) sizes have no CUDA device. A partitioned A10 (NVadsA10 v5
//! below 36 vCPUs) shows the guest one device.

/// What the table knows of a size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Accelerators {
    /// No GPU family: a CPU size.
    None,
    /// This many NVIDIA GPUs the guest sees, and their model.
    Cuda(u32, &'static str),
    /// GPUs without CUDA (AMD) or FPGAs: a CUDA job finds none.
    NotCuda(&'static str),
    /// A GPU family size the table does not list.
    Unknown,
}

/// `(size in lower case, CUDA devices, GPU model)`.
const CUDA: &[(&str, u32, &str)] = &[
    ("standard_nc6", 1, "Tesla K80"),
    ("standard_nc12", 2, "Tesla K80"),
    ("standard_nc24", 4, "Tesla K80"),
    ("standard_nc24r", 4, "Tesla K80"),
    ("standard_nc6s_v2", 1, "Tesla P100"),
    ("standard_nc12s_v2", 2, "Tesla P100"),
    ("standard_nc24s_v2", 4, "Tesla P100"),
    ("standard_nc24rs_v2", 4, "Tesla P100"),
    ("standard_nc6s_v3", 1, "Tesla V100"),
    ("standard_nc12s_v3", 2, "Tesla V100"),
    ("standard_nc24s_v3", 4, "Tesla V100"),
    ("standard_nc24rs_v3", 4, "Tesla V100"),
    ("standard_nc4as_t4_v3", 1, "Tesla T4"),
    ("standard_nc8as_t4_v3", 1, "Tesla T4"),
    ("standard_nc16as_t4_v3", 1, "Tesla T4"),
    ("standard_nc64as_t4_v3", 4, "Tesla T4"),
    ("standard_nc24ads_a100_v4", 1, "A100 80 GB"),
    ("standard_nc48ads_a100_v4", 2, "A100 80 GB"),
    ("standard_nc96ads_a100_v4", 4, "A100 80 GB"),
    ("standard_nc40ads_h100_v5", 1, "H100 NVL"),
    ("standard_nc80adis_h100_v5", 2, "H100 NVL"),
    ("standard_ncc40ads_h100_v5", 1, "H100"),
    ("standard_nd6s", 1, "Tesla P40"),
    ("standard_nd12s", 2, "Tesla P40"),
    ("standard_nd24s", 4, "Tesla P40"),
    ("standard_nd24rs", 4, "Tesla P40"),
    ("standard_nd40rs_v2", 8, "Tesla V100 32 GB"),
    ("standard_nd96asr_v4", 8, "A100 40 GB"),
    ("standard_nd96amsr_a100_v4", 8, "A100 80 GB"),
    ("standard_nd96isr_h100_v5", 8, "H100"),
    ("standard_nd96isr_h200_v5", 8, "H200"),
    ("standard_nd128isr_ndr_gb200_v6", 4, "GB200"),
    ("standard_nd128isr_gb300_v6", 4, "GB300"),
    ("standard_nv6", 1, "Tesla M60"),
    ("standard_nv12", 2, "Tesla M60"),
    ("standard_nv24", 4, "Tesla M60"),
    ("standard_nv12s_v3", 1, "Tesla M60"),
    ("standard_nv24s_v3", 2, "Tesla M60"),
    ("standard_nv48s_v3", 4, "Tesla M60"),
    ("standard_nv6ads_a10_v5", 1, "A10 (a sixth)"),
    ("standard_nv12ads_a10_v5", 1, "A10 (a third)"),
    ("standard_nv18ads_a10_v5", 1, "A10 (a half)"),
    ("standard_nv36ads_a10_v5", 1, "A10"),
    ("standard_nv36adms_a10_v5", 1, "A10"),
    ("standard_nv72ads_a10_v5", 2, "A10"),
];

/// `(size in lower case, what it has instead)`.
const NOT_CUDA: &[(&str, &str)] = &[
    ("standard_nd96isr_mi300x_v5", "AMD Instinct MI300X GPUs"),
    ("standard_nv4as_v4", "an AMD MI25 GPU partition"),
    ("standard_nv8as_v4", "an AMD MI25 GPU partition"),
    ("standard_nv16as_v4", "an AMD MI25 GPU partition"),
    ("standard_nv32as_v4", "an AMD MI25 GPU"),
    ("standard_ng8ads_v620_v1", "an AMD V620 GPU partition"),
    ("standard_ng16ads_v620_v1", "an AMD V620 GPU partition"),
    ("standard_ng32ads_v620_v1", "an AMD V620 GPU"),
    ("standard_ng32adms_v620_v1", "an AMD V620 GPU"),
    ("standard_nv4ads_v710_v5", "an AMD V710 GPU partition"),
    ("standard_nv8ads_v710_v5", "an AMD V710 GPU partition"),
    ("standard_nv12ads_v710_v5", "an AMD V710 GPU partition"),
    ("standard_nv24ads_v710_v5", "an AMD V710 GPU"),
    ("standard_nv28adms_v710_v5", "an AMD V710 GPU"),
    ("standard_np10s", "FPGAs"),
    ("standard_np20s", "FPGAs"),
    ("standard_np40s", "FPGAs"),
];

/// What a node of `size` (any case, with or without `Standard_`) has.
pub(crate) fn accelerators(size: &str) -> Accelerators {
    let lower = size.trim().to_ascii_lowercase();
    let name = if lower.starts_with("standard_") {
        lower
    } else {
        format!("standard_{lower}")
    };
    if let Some((_, n, model)) = CUDA.iter().find(|(s, _, _)| *s == name) {
        return Accelerators::Cuda(*n, model);
    }
    if let Some((_, what)) = NOT_CUDA.iter().find(|(s, _)| *s == name) {
        return Accelerators::NotCuda(what);
    }
    // The family is the letters after `Standard_`: `n` there (not a feature letter
    // such as the one in `D4ns_v6`) marks an accelerated size.
    if name["standard_".len()..].starts_with('n') {
        Accelerators::Unknown
    } else {
        Accelerators::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_in_any_spelling() {
        assert_eq!(
            accelerators("STANDARD_NC24ADS_A100_V4"),
            Accelerators::Cuda(1, "A100 80 GB")
        );
        assert_eq!(
            accelerators("Standard_NC12s_v3"),
            Accelerators::Cuda(2, "Tesla V100")
        );
        assert_eq!(
            accelerators("nc64as_t4_v3"),
            Accelerators::Cuda(4, "Tesla T4")
        );
        assert_eq!(accelerators("Standard_DS3_v2"), Accelerators::None);
        assert_eq!(accelerators("Standard_D4ns_v6"), Accelerators::None);
        assert_eq!(
            accelerators("Standard_NP10s"),
            Accelerators::NotCuda("FPGAs")
        );
        assert_eq!(
            accelerators("Standard_NC8ads_A10_v4"),
            Accelerators::Unknown
        );
        for (s, n, _) in CUDA {
            assert!(*n >= 1 && s.starts_with("standard_n") && *s == s.to_ascii_lowercase());
        }
    }
}
