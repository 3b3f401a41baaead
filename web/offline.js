// The offline page's one action (a script file: the page's CSP runs no inline handler).
document.getElementById("retry").addEventListener("click", () => location.reload());
