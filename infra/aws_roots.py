"""The functions' trust store: the roots of Amazon Trust Services, cut from botocore's CA bundle by
the asset build (infra/build_asset.py), so the functions trust AWS's endpoints and nothing else."""

from pathlib import Path

# The trust store of the functions: the roots of Amazon Trust Services, by their labels in
# botocore's cacert.pem (each certificate there follows a `# Label: "<name>"` line).
AWS_ROOTS = (
    "Amazon Root CA 1",
    "Amazon Root CA 2",
    "Amazon Root CA 3",
    "Amazon Root CA 4",
    "Starfield Services Root Certificate Authority - G2",
)
AWS_ROOTS_FILE = "aws-roots.pem"  # at the asset's root; infra.functions sets AWS_CA_BUNDLE to it


class MissingRoot(RuntimeError):
    """A root of AWS_ROOTS is not in the CA bundle: the build stops rather than ship a trust store
    that would refuse AWS."""


def roots_of(bundle: str, labels: tuple[str, ...] = AWS_ROOTS) -> str:
    """The PEM certificates of BUNDLE (botocore's cacert.pem) labelled LABELS, in that order."""
    found: dict[str, str] = {}
    label = None
    for block in bundle.split("-----END CERTIFICATE-----"):
        for line in block.splitlines():
            if line.startswith("# Label: "):
                label = line.removeprefix("# Label: ").strip('"')
        if label in labels and "-----BEGIN CERTIFICATE-----" in block:
            found[label] = block[block.index("-----BEGIN CERTIFICATE-----") :] + "-----END CERTIFICATE-----\n"
        label = None
    missing = [name for name in labels if name not in found]
    if missing:
        raise MissingRoot(f"not in the CA bundle: {', '.join(missing)}")
    return "".join(f"# {name}\n{found[name]}" for name in labels)


def write_aws_roots(out: Path) -> None:
    """The asset's trust store, from the botocore bundle installed in OUT."""
    bundle = (out / "botocore" / "cacert.pem").read_text()
    (out / AWS_ROOTS_FILE).write_text(roots_of(bundle))
