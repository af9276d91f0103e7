{
  "targets": [
    {
      "target_name": "decisio_blas",
      "sources": ["decisio_blas.c"],
      "include_dirs": ["/usr/include/x86_64-linux-gnu/openblas-pthread", "/usr/include/x86_64-linux-gnu"],
      "libraries": ["-lopenblas", "-lm"],
      "cflags": ["-O3", "-march=x86-64-v2"]
    }
  ]
}
