use super::*;

fn v(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn own_options_are_split_from_diskspds() {
    let (own, rest) = split(&v("--format json -t2 --out=r.json -b4k --keep f.dat")).unwrap();
    assert_eq!((own.format.text.as_str(), own.keep), ("json", true));
    assert_eq!(own.out.unwrap().to_str(), Some("r.json"));
    assert_eq!(rest, v("-t2 -b4k f.dat"));
    assert_eq!(split(&v("--size 1G f")).unwrap_err().option, "--size");
    assert_eq!(split(&v("-t2 --format")).unwrap_err().option, "--format");
}
