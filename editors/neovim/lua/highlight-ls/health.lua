-- :checkhealth highlight-ls — the server binary, its version, how it is started, and what is
-- attached. Uses vim.health's start/ok/warn/error (0.10+) and the report_* names before that.
local M = {}

local function reporter()
  local health = vim.health
  if health == nil or (health.start == nil and health.report_start == nil) then
    health = require("health")
  end
  return {
    start = health.start or health.report_start,
    ok = health.ok or health.report_ok,
    info = health.info or health.report_info,
    warn = health.warn or health.report_warn,
    error = health.error or health.report_error,
  }
end

-- Runs a command with a time limit; returns its exit code and output (stdout then stderr).
local function run(argv)
  if vim.system then
    local ok, process = pcall(vim.system, argv, { text = true })
    if not ok then
      return -1, tostring(process)
    end
    local result = process:wait(5000)
    return result.code, (result.stdout or "") .. (result.stderr or "")
  end
  local output = vim.fn.system(argv)
  return vim.v.shell_error, output
end

local function lsp_enabled(name)
  if vim.lsp.is_enabled then
    return vim.lsp.is_enabled(name)
  end
  return type(vim.lsp._enabled_configs) == "table" and vim.lsp._enabled_configs[name] ~= nil
end

-- The command the client will run, and where it comes from.
local function command_in_use(plugin)
  local name = plugin.options.name
  if vim.fn.has("nvim-0.11") == 1 and vim.lsp.config then
    local ok, config = pcall(function()
      return vim.lsp.config[name]
    end)
    if ok and type(config) == "table" and config.cmd ~= nil then
      return config.cmd, 'vim.lsp.config["' .. name .. '"].cmd'
    end
  end
  return plugin.options.cmd, 'require("highlight-ls").options.cmd'
end

--- The checks of :checkhealth highlight-ls.
function M.check()
  local report = reporter()
  local plugin = require("highlight-ls")
  local name = plugin.options.name

  report.start("highlight-ls: Neovim")
  local version = vim.version()
  local version_text = string.format("%d.%d.%d", version.major, version.minor, version.patch)
  if vim.fn.has("nvim-0.11") == 1 then
    report.ok("Neovim " .. version_text .. ": vim.lsp.enable(\"" .. name .. "\") starts the server (lsp/highlight-ls.lua)")
    if lsp_enabled(name) then
      report.ok("vim.lsp.enable(\"" .. name .. "\") has been called")
    else
      report.warn("the server is not enabled, so it starts for no buffer", {
        'Add vim.lsp.enable("highlight-ls") to your init.lua, or call require("highlight-ls").setup({})',
      })
    end
  elseif vim.fn.has("nvim-0.7") == 1 then
    report.ok("Neovim " .. version_text .. ": require(\"highlight-ls\").setup({}) starts the server")
  else
    report.error("Neovim " .. version_text .. " is too old", { "highlight-ls needs Neovim 0.7 or later" })
  end

  report.start("highlight-ls: server binary")
  local cmd, source = command_in_use(plugin)
  if type(cmd) == "function" then
    report.info(source .. " is a function; the binary it starts is not checked")
  elseif type(cmd) ~= "table" or type(cmd[1]) ~= "string" then
    report.error(source .. " is not a list of strings: " .. vim.inspect(cmd))
  else
    local path = vim.fn.exepath(cmd[1])
    if path == "" then
      local fix = 'require("highlight-ls").setup({ cmd = { "/path/to/highlight-ls" } })'
      if vim.fn.has("nvim-0.11") == 1 then
        fix = 'vim.lsp.config("highlight-ls", { cmd = { "/path/to/highlight-ls" } })'
      end
      report.error(string.format("%q (%s) is not an executable", cmd[1], source), {
        "Install highlight-ls on PATH; :help highlight-ls-install tells how",
        "or give its path: " .. fix,
      })
    else
      report.ok("binary: " .. path)
      local code, output = run({ path, "--version" })
      local first_line = vim.split(output or "", "\n", { trimempty = true })[1] or ""
      local server_version = first_line:match("^highlight%-ls%s+(%S+)")
      if code ~= 0 then
        report.error(string.format("%s --version exited with %s: %s", path, tostring(code), first_line), {
          "Rebuild or reinstall highlight-ls",
        })
      elseif not server_version then
        report.warn("unexpected --version output: " .. first_line, { "Is this highlight-ls?" })
      else
        report.ok("version: " .. server_version .. " (" .. first_line .. ")")
      end
    end
  end

  report.start("highlight-ls: clients and highlighting")
  local clients = plugin.clients(nil)
  if #clients == 0 then
    report.info("no client is running (none starts before a file is opened)")
  end
  for _, client in ipairs(clients) do
    local buffers = 0
    for _ in pairs(client.attached_buffers or {}) do
      buffers = buffers + 1
    end
    report.ok(string.format("client %d: root %s, %d buffer(s)", client.id, tostring(client.config.root_dir), buffers))
  end
  if plugin.is_enabled(nil) then
    report.ok("highlighting is on (:HighlightLsDisable! turns it off everywhere)")
  else
    report.warn("highlighting is off everywhere", { ":HighlightLsEnable! turns it on" })
  end
  local decorations = plugin.options.decorations and "decorations (extmarks)" or "no decorations"
  report.info("drawing: " .. decorations .. (plugin.options.follow_theme and "; built-in styles follow the colour scheme" or "; exact colours"))
end

return M
